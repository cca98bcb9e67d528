import { expect as baseExpect, type Page, type TestInfo, test } from "@playwright/test";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { payAndPost, shot, submitAsAgent } from "./helpers";
import { devnet, injectWallet } from "./wallet";
import { closedPortUrl, startReceiver } from "./webhook-receiver";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 20_000 });

// accounts[6] owns the namespace (paid through the API), accounts[7] is the agent, as in the journey.
const OWNER = devnet.accounts[6]!;
const AGENT = devnet.accounts[7]!;
const APP = devnet.appUrl;
const SIZES = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;

/** Nothing sticks out past the right edge: the page never scrolls sideways. */
async function fits(page: Page, what: string) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth <= window.innerWidth
      ? []
      : [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(-5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 120)),
  );
  expect(overflow, `${what} fits the screen`).toEqual([]);
}

/** Says whether a button's label sits on one line inside it (no wrapped or clipped text). */
const oneLine = (page: Page, name: string) =>
  page
    .getByRole("button", { name })
    .first()
    .evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return lines.size === 1 && el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth;
    });

for (const [size, viewport] of SIZES) {
  test.describe(`webhook alerts on a ${size} screen`, () => {
    test.use({ viewport });

    test("one message per owner action, one log row with its items, the chat URL masked", async ({
      page,
    }, testInfo: TestInfo) => {
      test.setTimeout(240_000);
      const namespace = `wa-${size.slice(0, 1)}${Date.now().toString(36)}`;
      const receiver = await startReceiver(
        "/services/T0AC3/B0AC3/k3yOfTheChannel",
        200,
        "ok from the receiver",
      );
      try {
        await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
        const titles = ["Checkout fails", "Pay does nothing", "Cart empties"];
        const ids: string[] = [];
        for (const title of titles) {
          ids.push(
            await submitAsAgent(AGENT.privateKey, namespace, {
              type: "bug",
              title,
              description: "Broken here.",
            }),
          );
        }

        await injectWallet(page, OWNER.privateKey);
        await page.goto(`${APP}/dashboard/${namespace}/webhooks`);
        await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${namespace} · Webhooks`);

        // Item 4: the form says what is wrong in its own words, the browser's tooltip off.
        const endpoint = page.getByRole("textbox", { name: "Endpoint URL" });
        const problem = page.getByRole("main").getByRole("alert");
        await endpoint.fill("not a url");
        await page.getByRole("button", { name: "Save" }).click();
        await expect(problem).toHaveText(
          "That is not a web address. Enter the full URL, starting with https://.",
        );
        await expect(endpoint).toHaveAttribute("aria-invalid", "true");
        await endpoint.fill("https://hooks.slack.invalid/services/T0/B0/x");
        await page.getByRole("button", { name: "Save" }).click();
        await expect(problem).toHaveText(
          "hooks.slack.invalid does not exist: DNS has no such host. Check the address for a typo.",
        );
        await endpoint.fill("http://10.0.0.7/hook");
        await page.getByRole("button", { name: "Save" }).click();
        await expect(problem).toContainText("private address. Webhooks only go to public servers");
        await endpoint.fill(receiver.url);
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Saved. Send a test event")).toBeVisible();

        // Item 3: in a chat format the URL is a credential, masked like the secret until revealed.
        await page.getByLabel("Message format").selectOption("slack");
        await page.getByRole("button", { name: "Apply alert settings" }).click();
        await expect(page.getByText("Alert settings applied.")).toBeVisible();
        const shownUrl = page.getByTestId("webhook-url");
        await expect(shownUrl).toContainText("•");
        await expect(shownUrl).not.toContainText("k3yOfTheChannel");
        await expect(endpoint).toBeHidden();
        await page.getByRole("button", { name: "Reveal URL" }).click();
        await expect(shownUrl).toHaveText(receiver.url);
        await page.getByRole("button", { name: "Hide URL" }).click();
        await expect(shownUrl).not.toContainText("k3yOfTheChannel");
        // Chat messages are not signed: no signing secret, no word of verifying one.
        await expect(page.getByText("Not signed: the URL itself is the credential.")).toBeVisible();
        await expect(page.getByText("Signing secret")).toHaveCount(0);
        await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
        await expect(page.getByRole("main")).not.toContainText("standardwebhooks");
        await fits(page, "the settings");

        // Item 2: resolving the three as one group, with a tip, is one Slack message.
        await payAndPost(OWNER.privateKey, "/api/namespace/resolve", {
          feedbackId: ids[0],
          alsoResolve: ids.slice(1),
          rewardAmount: "0.01",
          message: "Fixed in 2.3",
        });
        // The payout lands within the paid call; the message waits at most 30 s for it anyway.
        await expect.poll(() => receiver.received.length, { timeout: 45_000 }).toBe(1);
        const message = JSON.parse(receiver.received[0]!.body);
        expect(message.text).toBe(`✅ 3 items resolved in ${namespace}`);
        for (const title of titles) expect(receiver.received[0]!.body).toContain(`|${title}>`);
        expect(receiver.received[0]!.body).toContain("reward of 0.01 USD paid");

        // The log: one row (or card) naming the three items, each linked to the dashboard.
        await page.reload();
        const entry =
          size === "desktop"
            ? page.getByRole("table").getByRole("row").filter({ hasText: "3 items in one message" })
            : page.getByTestId("delivery-card").filter({ hasText: "3 items in one message" });
        await expect(entry).toHaveCount(1);
        await expect(entry).toContainText("delivered");
        await expect(entry).toContainText("HTTP 200");
        for (const [i, title] of titles.entries()) {
          await expect(entry.getByRole("link", { name: title })).toHaveAttribute(
            "href",
            `/dashboard/${namespace}?status=all&item=${ids[i]}`,
          );
        }
        await entry.getByRole("button", { name: "Details" }).click();
        const details = size === "desktop" ? page.getByRole("table") : entry;
        await expect(details.getByTestId("delivery-sent")).toContainText(`3 items resolved in ${namespace}`);
        await expect(details.getByTestId("delivery-excerpt")).toHaveText("ok from the receiver");
        await fits(page, "the log with a delivery's details open");
        if (size === "desktop") expect(await oneLine(page, "Re-send")).toBe(true);
        await shot(page, testInfo, `webhook-alerts-${size}-01-one-message`);

        // Nothing more arrives for that action after another two worker passes.
        await page.waitForTimeout(4_500);
        expect(receiver.received).toHaveLength(1);

        // One item resolved alone: its message says "Resolved", and so does its row in the log.
        const single = await submitAsAgent(AGENT.privateKey, namespace, {
          type: "bug",
          title: "Receipt email is blank",
          description: "Broken here too.",
        });
        const before = receiver.received.length;
        const resolved = await createSignInFetch(OWNER.privateKey, fetch).fetch(
          `${APP}/api/namespace/resolve`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ feedbackId: single, message: "Fixed" }),
          },
        );
        expect(resolved.status).toBe(200);
        await expect
          .poll(
            () =>
              receiver.received
                .slice(before)
                .some((r) => r.body.includes("Receipt email is blank") && /resolved/i.test(r.body)),
            {
              timeout: 45_000,
            },
          )
          .toBe(true);
        await page.reload();
        const row = (
          size === "desktop" ? page.getByRole("table").getByRole("row") : page.getByTestId("delivery-card")
        ).filter({ has: page.getByRole("link", { name: "Receipt email is blank" }) });
        await expect(row.filter({ hasText: "feedback.resolved" })).toHaveCount(1);
        await expect(row.filter({ hasText: "feedback.status_changed" })).toHaveCount(0);

        // A receiver that refuses connections is said so in the log, not "no answer".
        await page.getByRole("button", { name: "Change" }).click();
        await endpoint.fill(await closedPortUrl());
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Saved. Send a test event")).toBeVisible();
        await page.getByRole("button", { name: "Send test event" }).click();
        const refused =
          size === "desktop"
            ? page.getByRole("table").getByRole("row").filter({ hasText: "webhook.test" })
            : page.getByTestId("delivery-card").filter({ hasText: "webhook.test" });
        await expect(refused).toContainText("connection refused");
        await fits(page, "the log");
        await shot(page, testInfo, `webhook-alerts-${size}-02-refused`);
      } finally {
        await receiver.close();
      }
    });
  });
}
