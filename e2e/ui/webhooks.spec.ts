import { expect as baseExpect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { payAndPost, shot, submitAsAgent, watchCsp } from "./helpers";
import { devnet, injectWallet } from "./wallet";
import { startReceiver } from "./webhook-receiver";

const expect = baseExpect.configure({ timeout: 20_000 });

// accounts[6] owns the namespace (paid through the API), accounts[7] is the agent, as in the journey.
const OWNER = devnet.accounts[6]!;
const AGENT = devnet.accounts[7]!;
const APP = devnet.appUrl;

test("an owner sets a webhook in the dashboard, sees signed deliveries arrive, rotates and removes it", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const namespace = `wh-${Date.now().toString(36)}`;
  const receiver = await startReceiver();
  try {
    await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });

    // Sign in at the inbox, then follow its header's link to the webhook settings.
    await injectWallet(page, OWNER.privateKey);
    const violations = await watchCsp(page);
    await page.goto(`${APP}/dashboard/${namespace}`);
    await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(`${APP}/dashboard/${namespace}/webhooks`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${namespace} · Webhooks`);
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();

    // A private address is refused with the reason, and nothing is saved.
    const endpoint = page.getByRole("textbox", { name: "Endpoint URL" });
    await endpoint.fill("http://10.0.0.7/hook");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("private");

    await endpoint.fill(receiver.url);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();

    // The secret is masked until revealed.
    const secretBox = page.getByTestId("webhook-secret");
    await expect(secretBox).toContainText("•");
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(secretBox).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret = (await secretBox.textContent())!;

    // A test event reaches the receiver, signed with that secret, and the log shows it delivered.
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event queued")).toBeVisible();
    await expect(page.getByText("Saved. Send a test event")).toHaveCount(0);
    const log = page.getByRole("table");
    const testRow = log.getByRole("row").filter({ hasText: "webhook.test" });
    await expect(testRow).toContainText("delivered");
    await expect(testRow).toContainText("HTTP 204");
    expect(receiver.received).toHaveLength(1);
    const testEvent = new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers);
    expect(testEvent).toMatchObject({ type: "webhook.test", data: { namespace } });
    await shot(page, testInfo, "webhooks-01-delivered");

    // An agent's paid submission is announced the same way.
    const id = await submitAsAgent(AGENT.privateKey, namespace, {
      type: "bug",
      title: "Webhook from the dashboard test",
      description: "Filed so the owner's receiver hears about it.",
    });
    await expect.poll(() => receiver.received.length).toBe(2);
    expect(
      new Webhook(secret).verify(receiver.received[1]!.body, receiver.received[1]!.headers),
    ).toMatchObject({ type: "feedback.created", data: { id, namespace, type: "bug" } });
    await page.reload();
    await expect(log.getByRole("row").filter({ hasText: "feedback.created" })).toContainText("delivered");

    // Rotating asks first, then signs every later delivery with the new secret only.
    await page.getByRole("button", { name: "Rotate" }).click();
    const confirm = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(secretBox).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(secretBox).not.toHaveText(secret);
    const rotated = (await secretBox.textContent())!;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.length).toBe(3);
    const third = receiver.received[2]!;
    expect(new Webhook(rotated).verify(third.body, third.headers)).toMatchObject({ type: "webhook.test" });
    expect(() => new Webhook(secret).verify(third.body, third.headers)).toThrow();
    await shot(page, testInfo, "webhooks-02-rotated");

    // Alerts: the same events as a Slack message (not signed: Slack cannot check it), and a delivery
    // sent again from the log, in the format chosen now.
    await page.getByLabel("Message format").selectOption("slack");
    // A change on screen and not applied: a test would go out as saved, so it waits for the change.
    await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
    await expect(page.getByText("Apply or undo your alert changes first")).toBeVisible();
    await page.getByRole("button", { name: "Apply alert settings" }).click();
    await expect(page.getByText("Alert settings applied.")).toBeVisible();
    // Only the latest action's banner shows: the earlier test's is gone.
    await expect(page.getByText("Test event queued")).toHaveCount(0);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event queued")).toBeVisible();
    await expect(page.getByText("Alert settings applied.")).toHaveCount(0);
    await expect(page.getByText("Saved. Send a test event")).toHaveCount(0);
    await expect.poll(() => receiver.received.length).toBe(4);
    const slack = receiver.received[3]!;
    expect(JSON.parse(slack.body)).toMatchObject({ text: expect.any(String) });
    expect(slack.headers["webhook-signature"]).toBeUndefined();
    await page.reload();
    const firstTest = testRow.last();
    await expect(firstTest).toContainText("delivered");
    await firstTest.getByRole("button", { name: "Re-send" }).click();
    await expect.poll(() => receiver.received.length).toBe(5);
    expect(JSON.parse(receiver.received[4]!.body)).toMatchObject({ text: expect.any(String) });
    await expect(firstTest).toContainText("Re-sent");
    await shot(page, testInfo, "webhooks-03-alerts");

    // An empty URL stops the events (a chat URL is masked: change it first).
    await page.getByRole("button", { name: "Change" }).click();
    await endpoint.fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Removed: no events are sent.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
    expect(violations).toEqual([]);
  } finally {
    await receiver.close();
  }
});
