import { readFile } from "node:fs/promises";
import { expect as baseExpect, type Page, type TestInfo, test } from "@playwright/test";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { createX402Fetch } from "../../scripts/clients/x402-payer";
import { AGENT, ITEMS, OWNER, type SeededApp, startSeededApp } from "./seeded-app";
import { devnet, injectWallet } from "./wallet";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 20_000 });

const NAMESPACE = "triage-10k";
const idOf = (i: number) => `fb_triage_10k_${i}`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The screen as it is, at desktop size and at phone size (which must not scroll sideways), kept as artifacts. */
async function screens(page: Page, testInfo: TestInfo, name: string) {
  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // What sticks out past the right edge, named, so a failure says where to look.
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth <= window.innerWidth
        ? []
        : [...document.querySelectorAll("body *")]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(-5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 120)),
    );
    expect(overflow, `${name} fits a ${size} screen`).toEqual([]);
    const path = testInfo.outputPath(`${name}-${size}.png`);
    await page.screenshot({ path, fullPage: size === "phone" });
    await testInfo.attach(`${name}-${size}`, { path, contentType: "image/png" });
  }
  await page.setViewportSize(DESKTOP);
}

let app: SeededApp;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startSeededApp([{ name: NAMESPACE, groups: true }]);
});
test.afterAll(async () => {
  await app?.stop();
});

test("an owner triages a 10,000-item inbox with duplicates, from group to tip to export and insights", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const { url } = app;
  const inbox = `${url}/dashboard/${NAMESPACE}`;
  await page.setViewportSize(DESKTOP);
  await injectWallet(page, OWNER.privateKey);
  await page.goto(`${url}/dashboard`);
  await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
  await expect(page.getByRole("link", { name: new RegExp(NAMESPACE) })).toBeVisible({ timeout: 30_000 });

  // Find the groups: the most reported first, one row per group with its count.
  const list = page.getByRole("list", { name: "Feedback items" });
  const rows = list.getByRole("link");
  await page.goto(`${inbox}?sort=reports`);
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText("×4");
  await screens(page, testInfo, "10k-01-most-reported");

  // Newest first, a group's head stands for its reports; opening it lists them.
  await page.goto(inbox);
  const head = rows.filter({ hasText: "Report 6:" });
  await expect(head).toContainText("×4");
  await expect(rows.filter({ hasText: "Report 2:" })).toHaveCount(0);
  await head.click();
  const detail = page.getByRole("article");
  const group = detail.getByRole("list", { name: "Reports in this group" });
  // The head lists its three other reports.
  await expect(group.getByRole("listitem")).toHaveCount(3);
  await screens(page, testInfo, "10k-02-group");

  // Merge a report the grouping missed into the group, by hand.
  await page.getByRole("checkbox", { name: /Report 1: / }).click();
  await page.getByRole("checkbox", { name: /Report 6: / }).click();
  const bulk = page.getByRole("region", { name: "Selected items" });
  await expect(bulk).toContainText("2 selected");
  await bulk.getByRole("button", { name: "Merge as duplicates" }).click();
  // It asks first, offering the row with the most reports as the lead.
  await page.getByRole("dialog").getByRole("button", { name: "Merge under the lead" }).click();
  await expect(head).toContainText("×5");
  await expect(rows.filter({ hasText: "Report 1:" })).toHaveCount(0);
  await expect(group.getByRole("listitem")).toHaveCount(4);
  await screens(page, testInfo, "10k-03-merged");

  // Ask the agent for more.
  const triage = detail.getByRole("region", { name: "Triage" });
  await triage.getByLabel("Status").selectOption("needs_info");
  await triage.getByLabel("Message to the submitter").fill("Which browser, and does step 6 fail every time?");
  await triage.getByRole("button", { name: "Update" }).click();
  const history = detail.getByRole("list", { name: "History" });
  await expect(history).toContainText("does step 6 fail every time?");
  await expect(head).toContainText("Needs info");
  await screens(page, testInfo, "10k-04-asked");

  // The agent answers through the API, paying for the follow-up as for a report.
  const agent = createX402Fetch({
    privateKey: AGENT.privateKey,
    network: devnet.x402.network,
    rpcUrl: devnet.x402.rpcUrl,
    asset: devnet.x402.asset,
  });
  const answer = await agent.fetch(`${url}/api/namespace/feedback/follow-up`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ feedbackId: idOf(6), message: "Chromium 131; it fails every single time." }),
  });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ feedbackId: idOf(6), status: "open" });
  await page.reload();
  await expect(history).toContainText("it fails every single time");
  await screens(page, testInfo, "10k-05-answered");

  // Resolve the group with a tip for the report that was answered: the owner's wallet pays it. The
  // dialog lists the rest of the group; the one merged by hand is ticked, the suggested ones are not.
  await detail.getByRole("button", { name: "Resolve", exact: true }).click();
  const resolve = page.getByRole("dialog", { name: "Resolve this item" });
  await expect(resolve.getByRole("checkbox", { name: /Report 1: / })).toBeChecked();
  for (const i of [2, 3, 4]) {
    const suggested = resolve.getByRole("checkbox", { name: new RegExp(`Report ${i}: `) });
    await expect(suggested).not.toBeChecked();
    await suggested.check();
  }
  await resolve.getByLabel(/Message to the submitter/).fill("Fixed in 3.2: the button no longer locks.");
  await resolve.getByLabel(/^Tip/).fill("0.5");
  await screens(page, testInfo, "10k-06-resolve-with-tip");
  await resolve.getByRole("button", { name: /^Pay .* and resolve$/ }).click();
  await expect(resolve).toBeHidden({ timeout: 60_000 });
  const resolution = detail.getByRole("region", { name: "Resolution" });
  await expect(resolution).toContainText("Fixed in 3.2");
  await expect(resolution).toContainText("Tip paid");
  await expect(resolution.getByTestId("reward-tx")).toContainText(/0x[0-9a-f]{64}/);
  await screens(page, testInfo, "10k-07-resolved");

  // Every report the owner ticked is resolved with the message; only the answered one carries the tip.
  const owner = createSignInFetch(OWNER.privateKey, fetch);
  for (const i of [1, 2, 3, 4, 6]) {
    const record = await (await owner.fetch(`${url}/api/namespace/feedback?id=${idOf(i)}`)).json();
    expect(record, `report ${i}`).toMatchObject({
      resolved: true,
      status: "resolved",
      resolveMessage: "Fixed in 3.2: the button no longer locks.",
      rewardAmount: i === 6 ? "0.5" : null,
    });
  }

  // Export the view: every open report (not one row per group), streamed as CSV.
  await page.goto(inbox);
  await expect(rows.first()).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export this view as CSV" }).click(),
  ]);
  const csv = (await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, "");
  const lines = csv.split("\r\n").filter((line) => /^fb_/.test(line));
  const open = ITEMS - ITEMS / 5 - 5;
  expect(lines).toHaveLength(open);
  expect(csv).not.toContain(`${idOf(6)},`);

  // Insights: the namespace in charts and numbers.
  await page.getByRole("link", { name: "Insights" }).click();
  await expect(page.getByRole("heading", { name: `${NAMESPACE} · Insights` })).toBeVisible();
  await expect(page.getByTestId("insights-open")).toContainText(String(open));
  await expect(page.getByTestId("insights-resolved")).toContainText(String(ITEMS - open));
  await expect(page.getByTestId("insights-rewards")).toContainText("0.5");
  await expect(page.getByTestId("chart-items-by-type").locator("svg").first()).toBeVisible();
  await page.getByTestId("chart-items-by-type").getByText("Show as table").click();
  await expect(page.getByTestId("table-items-by-type")).toBeVisible();
  await screens(page, testInfo, "10k-08-insights");
});
