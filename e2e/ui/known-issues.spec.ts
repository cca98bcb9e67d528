import { expect as baseExpect, test } from "@playwright/test";
import { payAndPost, shot, submitAsAgent } from "./helpers";
import { OWNER, openAs, SIZES, type SizeName, SUBMITTER, SUBMITTERS, signInState } from "./walk-world";
import { devnet } from "./wallet";

const expect = baseExpect.configure({ timeout: 20_000 });

for (const size of Object.keys(SIZES) as SizeName[]) {
  test(`at ${size}, the owner publishes its known issues, hides one, reviews a later report, and withdraws them`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const namespace = `ki-${size}-${Date.now().toString(36)}`;
    await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
    const shown = `Search ignores accents (${size})`;
    const secret = `Internal hostname leaks in errors (${size})`;
    // Two unrelated reports, so the service suggests neither into the other's group.
    const shownId = await submitAsAgent(SUBMITTER.privateKey, namespace, {
      type: "bug",
      title: shown,
      description: "Searching for cafe does not find the Café Noir listing.",
    });
    await submitAsAgent(SUBMITTER.privateKey, namespace, {
      type: "feature",
      title: secret,
      description: "A 500 page prints db-7.internal in its stack trace.",
    });
    const publicList = async () =>
      fetch(`${devnet.appUrl}/api/namespace/known-issues?namespace=${namespace}`);
    expect((await publicList()).status).toBe(404);

    const owner = await openAs(browser, "owner", size, {
      owner: await signInState(browser, OWNER.privateKey),
    });
    try {
      const { page } = owner;
      await page.goto(`${devnet.appUrl}/dashboard/${namespace}`);
      await page.getByRole("link", { name: "Known issues" }).click();
      const list = page.getByRole("list", { name: "Known issues" });
      await expect(list.getByRole("listitem")).toHaveCount(2);
      await list.getByRole("button", { name: `Hide “${secret}”` }).click();
      await expect(list.getByRole("button", { name: `List “${secret}”` })).toBeVisible();
      await page.getByRole("button", { name: "Publish known issues" }).click();
      await expect(page.getByRole("button", { name: "Withdraw the list" })).toBeVisible();
      await shot(page, testInfo, `known-issues-${size}-published`);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

      // What anyone reads now: the one shown, as its title only.
      const published = await (await publicList()).json();
      expect(published.issues.map((i: { title: string }) => i.title)).toEqual([shown]);

      // A report filed after publishing is not public until the owner has seen it.
      const later = `Call Jane on 555-0100 about the export (${size})`;
      await submitAsAgent(SUBMITTER.privateKey, namespace, {
        type: "feedback",
        title: later,
        description: "A title with a person's name and number in it, filed after the list went public.",
      });
      expect((await (await publicList()).json()).issues.map((i: { title: string }) => i.title)).toEqual([
        shown,
      ]);
      await page.reload();
      await expect(list.getByRole("listitem").filter({ hasText: later })).toContainText("Awaiting review");
      await expect(page.getByText("1 report waits for you")).toBeVisible();
      await list.getByRole("button", { name: `List “${later}”` }).click();
      await expect(list.getByRole("listitem").filter({ hasText: later })).toContainText("Listed");
      const reviewed = await (await publicList()).json();
      expect(reviewed.issues.map((i: { title: string }) => i.title).sort()).toEqual([later, shown].sort());

      if (size === "desktop") {
        // Another reporter says "me too": resolving the issue, the owner is told who reads which words.
        await submitAsAgent(SUBMITTERS[1].privateKey, namespace, {
          type: "bug",
          title: "Cafe search finds nothing",
          description: "Same as the known issue: no accents.",
          duplicateOf: shownId,
        });
        await page.goto(`${devnet.appUrl}/dashboard/${namespace}?status=all&item=${shownId}`);
        await page.getByRole("article").getByRole("button", { name: "Resolve", exact: true }).click();
        const resolve = page.getByRole("dialog", { name: "Resolve this item" });
        await resolve.getByLabel(/Message to the submitter/).fill("Thanks, this one is for you");
        await expect(resolve).toContainText("1 reporter said “me too”");
        await resolve.getByLabel(/Public note/).fill("Fixed in 3.2");
        await shot(page, testInfo, "known-issues-resolve-public-note");
        await resolve.getByRole("button", { name: "Resolve", exact: true }).click();
        await expect(resolve).toBeHidden();
        const noted = await (await publicList()).json();
        const issue = noted.issues.find((i: { id: string }) => i.id === shownId);
        expect(issue).toMatchObject({ status: "resolved", note: "Fixed in 3.2" });
        expect(JSON.stringify(noted)).not.toContain("for you");
        await page.goto(`${devnet.appUrl}/dashboard/${namespace}/known-issues`);
      }

      await page.getByRole("button", { name: "Withdraw the list" }).click();
      await expect(page.getByRole("button", { name: "Publish known issues" })).toBeVisible();
      expect((await publicList()).status).toBe(404);
    } finally {
      await owner.context.close();
    }
  });
}
