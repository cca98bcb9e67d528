import { expect as baseExpect, test } from "@playwright/test";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { payAndPost, shot, submitAsAgent } from "./helpers";
import {
  asOwner,
  OWNER,
  openAs,
  openSubmissions,
  SIZES,
  type SizeName,
  SUBMITTER,
  signInState,
} from "./walk-world";
import { devnet } from "./wallet";

const expect = baseExpect.configure({ timeout: 20_000 });

for (const size of Object.keys(SIZES) as SizeName[]) {
  test(`at ${size}, a submitter says a resolution did not fix its report, then confirms the next one`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const namespace = `cf-${size}-${Date.now().toString(36)}`;
    await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
    const title = `Receipt email arrives blank (${size})`;
    const id = await submitAsAgent(SUBMITTER.privateKey, namespace, {
      type: "bug",
      title,
      description: "The receipt email after checkout has a subject and no body.",
    });
    await asOwner("/api/namespace/resolve", { feedbackId: id, message: "Fixed in 2.4" });

    const { context, page, mine } = await openSubmissions(browser, size, namespace);
    try {
      await expect(mine).toContainText("Fixed in 2.4");
      await expect(mine).toContainText("Did this fix it?");

      // Not fixed: what still fails, for the owner; the item opens again.
      await mine.getByRole("button", { name: "Not fixed" }).click();
      const form = mine.getByRole("form", { name: "Not fixed" });
      await form.getByLabel(/What still fails/).fill("Still blank in Outlook.");
      await shot(page, testInfo, `confirm-${size}-01-not-fixed`);
      await form.getByRole("button", { name: "Reopen: not fixed" }).click();
      await expect(mine.getByText("Open", { exact: true })).toBeVisible();
      await expect(mine).not.toContainText("Did this fix it?");
      // The resolution it answered reads as the past, never as a new word from the owner.
      const note = mine.getByTestId("owner-note");
      await expect(note).toContainText("The earlier resolution (you said it did not fix it)");
      await expect(note).not.toContainText("The owner says");
      const history = mine.getByRole("list", { name: "History" });
      await mine.getByText(/^History/).click();
      await expect(history).toContainText("says the resolution did not fix it, and reopened the item");
      await expect(history).toContainText("Still blank in Outlook.");

      // The owner sees it disputed, in the inbox and on the item.
      const owner = await openAs(browser, "owner", size, {
        owner: await signInState(browser, OWNER.privateKey),
      });
      try {
        await owner.page.goto(`${devnet.appUrl}/dashboard/${namespace}`);
        const row = owner.page
          .getByRole("list", { name: "Feedback items" })
          .getByRole("link", { name: new RegExp(title.replace(/[()]/g, "\\$&")) });
        await expect(row).toContainText("Disputed");
        // The inbox narrows to the disputed items (on a phone the select folds behind "Filters").
        const more = owner.page.getByRole("button", { name: /^Filters/ });
        if (await more.isVisible()) await more.click();
        await owner.page.getByLabel("Submitter's answer").selectOption("disputed");
        await expect(owner.page).toHaveURL(/answer=disputed/);
        await expect(row).toBeVisible();
        await owner.page.getByLabel("Submitter's answer").selectOption("confirmed");
        await expect(owner.page).toHaveURL(/answer=confirmed/);
        await expect(row).toHaveCount(0);
        await owner.page.getByLabel("Submitter's answer").selectOption("disputed");
        await row.click();
        const detail = owner.page.getByRole("article");
        await expect(detail).toContainText("Disputed");
        await expect(detail.getByRole("list", { name: "History" })).toContainText("Still blank in Outlook.");
      } finally {
        await owner.context.close();
      }

      // Resolved again: the new resolution can be confirmed, once.
      await asOwner("/api/namespace/resolve", { feedbackId: id, message: "Fixed for Outlook too" });
      await page.reload();
      await expect(mine).toContainText("Fixed for Outlook too");
      // Fixed, with a note for the owner, as the API takes it.
      await mine.getByRole("button", { name: "Fixed, with a note" }).click();
      const fixed = mine.getByRole("form", { name: "Fixed" });
      await expect(fixed.getByLabel(/Anything the owner should know/)).toBeFocused();
      await page.keyboard.type("Works in Outlook 2021 now.");
      await fixed.getByRole("button", { name: "Confirm: fixed" }).click();
      await expect(mine).toContainText("You confirmed this fixed it.");
      await expect(mine.getByRole("button", { name: "Not fixed" })).toHaveCount(0);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await shot(page, testInfo, `confirm-${size}-02-confirmed`);

      const record = await (
        await createSignInFetch(OWNER.privateKey).fetch(`${devnet.appUrl}/api/namespace/feedback?id=${id}`)
      ).json();
      expect(record).toMatchObject({
        status: "resolved",
        confirmation: { outcome: "fixed", current: true, note: "Works in Outlook 2021 now." },
      });
      // Both exports carry the reporter's answer: the CSV has the JSON's confirmation, as a column.
      const csv = await (
        await createSignInFetch(OWNER.privateKey).fetch(
          `${devnet.appUrl}/api/namespace/export?namespace=${namespace}&format=csv&status=resolved`,
        )
      ).text();
      const [header, row] = csv.replace(/^\uFEFF/, "").split("\r\n");
      expect(header!.split(",")).toContain("confirmation");
      expect(row).toContain('""outcome"":""fixed""');
      expect(row).toContain('""current"":true');
    } finally {
      await context.close();
    }
  });
}
