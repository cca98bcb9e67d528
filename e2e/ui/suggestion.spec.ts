import { expect as baseExpect, test } from "@playwright/test";
import { payAndPost, shot, submitAsAgent } from "./helpers";
import { OWNER, openAs, SUBMITTERS, signInState } from "./walk-world";
import { devnet } from "./wallet";

const expect = baseExpect.configure({ timeout: 20_000 });

// Two agents report one issue in their own words: few words in common, the same thing ("Refund") and the same
// symptom ("does nothing" / "nothing happens") in both titles. The service suggests the second into the first's
// group, marked as a suggestion; the owner's "Not alike" takes it out again, and nothing else changed.
test("a report of one issue in other words is suggested into its group, and the owner can say it is not alike", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const namespace = `alike-${Date.now().toString(36)}`;
  await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
  const first = "Refund button does nothing";
  const second = "Nothing happens when I press Refund";
  await submitAsAgent(SUBMITTERS[0].privateKey, namespace, {
    type: "bug",
    title: first,
    description:
      "Clicking Refund on an order in the dashboard has no effect at all, and the customer is not refunded.",
  });
  await submitAsAgent(SUBMITTERS[1].privateKey, namespace, {
    type: "bug",
    title: second,
    description: "Tried it on three orders today: the page just sits there and the money stays with us.",
  });

  const owner = await openAs(browser, "owner", "desktop", {
    owner: await signInState(browser, OWNER.privateKey),
  });
  try {
    const { page } = owner;
    await page.goto(`${devnet.appUrl}/dashboard/${namespace}`);
    const list = page.getByRole("list", { name: "Feedback items" });
    const head = list.getByRole("link", { name: new RegExp(first) });
    // Grouping runs after the paid answer: the row counts both reports once it has.
    await expect(async () => {
      await page.reload();
      await expect(head).toContainText("×2", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(list.getByRole("link")).toHaveCount(1);
    await head.click();
    const detail = page.getByRole("article");
    const group = detail.getByRole("list", { name: "Reports in this group" });
    await expect(group).toContainText(second);
    await expect(group).toContainText("suggested");
    await shot(page, testInfo, "suggestion-group");

    // Only a suggestion: one press takes it out, and each report is a row of its own again.
    await group.getByRole("button", { name: "Not alike" }).click();
    await expect(list.getByRole("link")).toHaveCount(2);
    await expect(head).not.toContainText("×2");
    await expect(list.getByRole("link", { name: new RegExp(second) })).toBeVisible();
  } finally {
    await owner.context.close();
  }
});
