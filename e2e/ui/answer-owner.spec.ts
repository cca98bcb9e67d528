import { expect as baseExpect, test } from "@playwright/test";
import { formatUsdForPeople } from "../../lib/money";
import { OPERATIONS } from "../../lib/schemas/operations/catalog";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { payAndPost, shot, submitAsAgent } from "./helpers";
import { asOwner, OWNER, openSubmissions, SIZES, type SizeName, SUBMITTER } from "./walk-world";
import { devnet } from "./wallet";

const expect = baseExpect.configure({ timeout: 20_000 });
// The price of an answer, as the catalogue declares it (the page reads the same catalogue).
const PRICE = `${formatUsdForPeople(OPERATIONS["follow-up"].price)} USD`;

for (const size of Object.keys(SIZES) as SizeName[]) {
  test(`at ${size}, a submitter answers the owner's question in the browser, paying the follow-up price`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const namespace = `ans-${size}-${Date.now().toString(36)}`;
    await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
    const id = await submitAsAgent(SUBMITTER.privateKey, namespace, {
      type: "feature",
      title: `Export invoices as PDF (${size})`,
      description: "Accountants ask for a PDF of each invoice instead of the HTML page.",
    });
    await asOwner("/api/namespace/feedback/status", {
      namespace,
      feedbackIds: [id],
      status: "needs_info",
      message: "Which invoice template do you use?",
    });

    const { context, page, mine } = await openSubmissions(browser, size, namespace);
    try {
      await expect(mine).toContainText("Needs info");
      await expect(mine.getByTestId("owner-note")).toContainText("Which invoice template do you use?");

      // The answer says what it costs before anything is signed.
      await mine.getByRole("button", { name: `Answer the owner · ${PRICE}` }).click();
      const form = mine.getByRole("form", { name: "Answer the owner" });
      await expect(form).toContainText(`An answer is a paid follow-up: ${PRICE}`);
      await form.getByLabel("Your answer").fill("The 'Classic' template, in A4.");
      await shot(page, testInfo, `answer-${size}-01-form`);
      await form.getByRole("button", { name: `Pay ${PRICE} and send` }).click();

      // Paid and stored: the item is open again and its history shows the answer.
      await expect(mine.getByRole("status")).toContainText("Answer sent", { timeout: 60_000 });
      await expect(mine.getByTestId("answer-tx")).toContainText(/0x[0-9a-f]{64}/);
      // Open again: its badge says so, and the form is gone (the question stays in the history).
      await expect(mine.getByText("Open", { exact: true })).toBeVisible();
      await expect(mine.getByTestId("owner-note")).toContainText("The owner asked (you answered)");
      await expect(mine.getByRole("button", { name: /Answer the owner/ })).toHaveCount(0);
      const history = mine.getByRole("list", { name: "History" });
      await expect(history).toBeVisible();
      await expect(history).toContainText("Which invoice template do you use?");
      await expect(history).toContainText("answered, and the item is open again");
      await expect(history).toContainText("The 'Classic' template, in A4.");
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await shot(page, testInfo, `answer-${size}-02-answered`);

      // The owner reads the answer in the item's history, and the item is open again.
      const owner = createSignInFetch(OWNER.privateKey);
      const record = await (await owner.fetch(`${devnet.appUrl}/api/namespace/feedback?id=${id}`)).json();
      expect(record.status).toBe("open");
      const last = record.history.at(-1);
      expect(last).toMatchObject({ kind: "follow_up", message: "The 'Classic' template, in A4." });
      expect(last.actor.toLowerCase()).toBe(SUBMITTER.address.toLowerCase());
    } finally {
      await context.close();
    }
  });
}
