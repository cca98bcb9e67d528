import { expect as baseExpect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { axeViolations } from "./a11y-checks";
import { payAndPost, submitAsAgent } from "./helpers";
import { asOwner, OWNER, openSubmissions, SIZES, type SizeName, SUBMITTER } from "./walk-world";
import { startReceiver } from "./webhook-receiver";

// The reporter's own page shows where events about each of its reports go, and sets, replaces and removes that
// callback with the API's checks and words; the secret of a new one is shown once, and signs what arrives.
const expect = baseExpect.configure({ timeout: 20_000 });

for (const size of Object.keys(SIZES) as SizeName[]) {
  test(`at ${size}, a reporter sets, replaces and removes its report's callback on /submissions`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const namespace = `cb-${size}-${Date.now().toString(36)}`;
    await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
    const id = await submitAsAgent(SUBMITTER.privateKey, namespace, {
      type: "bug",
      title: `Invoice PDF has no line items (${size})`,
      description: "The PDF attached to the invoice email lists the total but no line items.",
    });
    const first = await startReceiver("/hooks/first");
    const second = await startReceiver("/hooks/second");
    const { context, page, mine } = await openSubmissions(browser, size, namespace);
    try {
      const callback = mine.getByRole("region", { name: "Callback" });
      await expect(callback).toContainText("No callback: nothing is sent to you when this report changes.");

      // The API's checks, in its words, with the keyboard: focus goes to the field, Enter saves.
      await callback.getByRole("button", { name: "Set a callback" }).click();
      const field = callback.getByRole("textbox", { name: "Callback URL" });
      await expect(field).toBeFocused();
      for (const [url, words] of [
        ["http://10.1.2.3/hook", "The callback URL points at a private address."],
        ["ftp://agent.example/hook", "The callback URL must be an http(s) URL."],
      ] as const) {
        await field.fill("");
        await page.keyboard.type(url);
        await page.keyboard.press("Enter");
        await expect(callback.getByRole("alert")).toHaveText(words);
        await expect(field).toHaveAttribute("aria-invalid", "true");
      }
      expect(await axeViolations(page)).toEqual([]);

      await field.fill(first.url);
      await page.keyboard.press("Enter");
      const secret = callback.getByTestId("callback-secret");
      await expect(secret).toHaveText(/^whsec_/);
      const firstSecret = (await secret.textContent())!;
      await expect(callback.getByTestId("callback-url")).toHaveText(first.url);
      await expect(callback).toContainText("Only you see this address.");
      await expect(callback.getByRole("button", { name: "Replace the callback" })).toBeFocused();
      expect(await axeViolations(page)).toEqual([]);

      // What the owner does reaches the URL, signed with the secret the page showed.
      await asOwner("/api/namespace/feedback/status", {
        namespace,
        feedbackIds: [id],
        status: "in_progress",
      });
      await expect.poll(() => first.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
      const event = new Webhook(firstSecret).verify(first.received[0]!.body, first.received[0]!.headers);
      expect(event).toMatchObject({ type: "report.status_changed", data: { id, status: "in_progress" } });

      // A reload shows the URL and never the secret again.
      await page.reload();
      await expect(callback.getByTestId("callback-url")).toHaveText(first.url);
      await expect(page.getByText(firstSecret)).toHaveCount(0);

      // Replaced: a new secret, and the events go to the new URL only.
      await callback.getByRole("button", { name: "Replace the callback" }).click();
      await callback.getByRole("textbox", { name: /New callback URL/ }).fill(second.url);
      await callback.getByRole("button", { name: "Save the callback" }).click();
      await expect(callback.getByTestId("callback-url")).toHaveText(second.url);
      const secondSecret = (await callback.getByTestId("callback-secret").textContent())!;
      expect(secondSecret).toMatch(/^whsec_/);
      expect(secondSecret).not.toBe(firstSecret);
      const before = first.received.length;
      await asOwner("/api/namespace/feedback/status", {
        namespace,
        feedbackIds: [id],
        status: "acknowledged",
      });
      await expect.poll(() => second.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(
        new Webhook(secondSecret).verify(second.received[0]!.body, second.received[0]!.headers),
      ).toMatchObject({
        data: { id, status: "acknowledged" },
      });
      expect(first.received.length).toBe(before);

      // Removed, after asking: nothing is sent any more.
      await callback.getByRole("button", { name: "Remove" }).click();
      const confirm = callback.getByRole("button", { name: "Remove the callback" });
      await expect(confirm).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(callback).toContainText("No callback: nothing is sent to you when this report changes.");
      await expect(callback.getByRole("button", { name: "Set a callback" })).toBeFocused();
    } finally {
      await context.close();
      await Promise.all([first.close(), second.close()]);
    }
  });
}
