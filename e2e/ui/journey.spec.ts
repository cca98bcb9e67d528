import { readFile } from "node:fs/promises";
import { expect as baseExpect, test } from "@playwright/test";
import { chainReader } from "../../testing/chain";
import { deliverLate, shot, submitAsAgent, watchCsp } from "./helpers";
import { devnet, injectWallet } from "./wallet";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 15_000 });

// accounts[6] owns the namespace in the browser; accounts[7] is the agent (other suites use the rest).
const OWNER = devnet.accounts[6]!;
const AGENT = devnet.accounts[7]!;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const REGISTER_PRICE = 1_000_000n;
const APP = devnet.appUrl;

test("an owner registers, finds an agent's report, resolves it, and the agent sees the answer", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const namespace = `ui-${Date.now().toString(36)}`;
  const word = `zebra${Math.random().toString(36).slice(2, 7)}`;
  const owner = await injectWallet(page, OWNER.privateKey);
  const cspViolations = await watchCsp(page);

  // Landing: what it is, prices, a snippet; served with a nonce-based CSP.
  const landing = await page.goto(`${APP}/`);
  expect(landing?.headers()["content-security-policy"]).toMatch(
    /script-src 'self' 'nonce-[^']+' 'strict-dynamic'/,
  );
  expect(landing?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(landing?.headers()["x-content-type-options"]).toBe("nosniff");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: /Register a namespace/ })).toContainText("1 USD");
  await expect(page.getByRole("button", { name: "Copy snippet" })).toBeVisible();
  await shot(page, testInfo, "01-landing");

  // Connect and sign in; a refused signature is explained, then the person signs.
  await page.getByRole("link", { name: "Open your inbox" }).click();
  await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect a wallet and sign in" });
  owner.rejectNext("personal_sign");
  await dialog.getByRole("button", { name: "Browser wallet" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(/You declined to sign the message in your wallet/);
  await dialog.getByRole("button", { name: /^Sign in as 0x/ }).click();
  await expect(page.getByRole("heading", { name: "Your namespaces", exact: true })).toBeVisible();
  expect(owner.count("personal_sign")).toBe(2);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "session");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });

  // Register from the browser: the wallet signs the 402's payment; the chain shows the transfer. (The
  // transfer, not the balance: other suites may pay from the same devnet wallet at the same time.)
  await page.getByRole("textbox", { name: "Namespace name" }).fill(namespace);
  await page.getByRole("button", { name: "Pay 1.00 USD and register" }).click();
  const receipt = page.getByTestId("register-tx");
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  const txHash = (await receipt.textContent())!.replace("Transaction", "").trim();
  const { status, transfers } = await chain.transfersIn(txHash);
  expect(status).toBe("success");
  expect(transfers).toContainEqual({ from: OWNER.address, to: devnet.x402.payTo, value: REGISTER_PRICE });
  await expect(page.getByRole("link", { name: new RegExp(namespace) })).toContainText("0 open");
  await shot(page, testInfo, "02-namespaces");

  // An agent submits through the API; the owner's inbox shows it, newest first, with counts.
  await submitAsAgent(AGENT.privateKey, namespace, {
    type: "feature",
    title: "Export the inbox as CSV",
    description: "A CSV export would help triage in a spreadsheet.",
    severity: "low",
  });
  await submitAsAgent(AGENT.privateKey, namespace, {
    type: "bug",
    title: `Checkout ${word} fails on Safari`,
    description: "Clicking Pay does nothing. <img src=x onerror=alert(1)> is shown as text.",
    severity: "high",
    steps: ["Open /checkout", "Click Pay"],
    expected: "The payment sheet opens",
    actual: "Nothing happens",
    context: '{"console":["TypeError: x is undefined"]}',
    metadata: { page: "https://shop.example.com/checkout", trap: "javascript:alert(1)" },
  });
  await page.getByRole("link", { name: new RegExp(namespace) }).click();
  const list = page.getByRole("list", { name: "Feedback items" });
  await expect(list.getByRole("link")).toHaveCount(2);
  await expect(list.getByRole("link").first()).toContainText(word);
  await expect(page.getByRole("button", { name: /^Bugs\s*1$/ })).toBeVisible();
  await shot(page, testInfo, "03-inbox");

  // Keyboard: "/" jumps to search; j and k walk the list, Escape closes the item.
  const search = page.getByRole("searchbox", { name: "Search the inbox" });
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await search.blur();
  await page.keyboard.press("j");
  await expect(page).toHaveURL(/item=fb_/);
  await expect(page.getByRole("article").getByRole("heading", { level: 2 })).toContainText(word);
  await page.keyboard.press("j");
  await expect(page.getByRole("article").getByRole("heading", { level: 2 })).toHaveText(
    "Export the inbox as CSV",
  );
  await expect(list.getByRole("link", { name: /Export the inbox/ })).toBeFocused();
  await page.keyboard.press("k");
  await expect(page.getByRole("article").getByRole("heading", { level: 2 })).toContainText(word);
  // x picks the open item for a bulk action, and picks it off again.
  await page.keyboard.press("x");
  await expect(page.getByRole("region", { name: "Selected items" })).toContainText("1 selected");
  await page.keyboard.press("x");
  await expect(page.getByRole("region", { name: "Selected items" })).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/item=/);

  // Filters and search narrow the list and live in the URL.
  await page.getByRole("button", { name: /^Features\s*1$/ }).click();
  await expect(page).toHaveURL(/type=feature/);
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list).toContainText("Export the inbox as CSV");
  // Two changes made in one task, before React renders again, both stay: each starts from the address
  // bar, not from the last render's params (the second used to undo the first).
  const everything = await page.getByRole("button", { name: /^Everything/ }).elementHandle();
  const severity = await page.getByLabel("Severity").elementHandle();
  await page.evaluate(
    ([button, select]) => {
      (button as HTMLButtonElement).click();
      (select as HTMLSelectElement).value = "high";
      select!.dispatchEvent(new Event("change", { bubbles: true }));
    },
    [everything, severity] as const,
  );
  await expect(page).toHaveURL(/severity=high/);
  await expect(page).not.toHaveURL(/type=feature/);
  await expect(list.getByRole("link")).toHaveCount(1);
  await page.getByLabel("Severity").selectOption("");
  await search.fill(word.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`q=${word.toUpperCase()}`));
  await expect(list.getByRole("link")).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search the inbox" })).toHaveValue(word.toUpperCase());
  await expect(list.getByRole("link")).toHaveCount(1);
  // The words that matched are marked in the row.
  await expect(list.locator("mark").first()).toHaveText(new RegExp(word, "i"));
  await shot(page, testInfo, "04-search");

  // The full view: every field, steps as a list, untrusted text as text, links only for http(s).
  await list.getByRole("link", { name: new RegExp(word) }).click();
  const detail = page.getByRole("article");
  await expect(detail.getByRole("heading", { name: new RegExp(word) })).toBeVisible();
  await expect(detail.getByRole("listitem").filter({ hasText: "Click Pay" })).toBeVisible();
  await expect(detail).toContainText("<img src=x onerror=alert(1)>");
  await expect(detail.locator("img")).toHaveCount(0);
  await expect(detail.getByRole("link", { name: /javascript:/ })).toHaveCount(0);
  await expect(detail).toContainText("The payment sheet opens");
  await shot(page, testInfo, "05-item");

  // Resolve with a message: the item updates in place.
  await detail.getByRole("button", { name: "Resolve", exact: true }).click();
  const resolve = page.getByRole("dialog", { name: "Resolve this item" });
  await resolve.getByLabel(/Message to the submitter/).fill("Fixed in 2.4.1, thank you!");
  await expect(resolve).toContainText("No tip: resolving is free.");
  await shot(page, testInfo, "06-resolve-dialog");
  await resolve.getByRole("button", { name: "Resolve", exact: true }).click();
  await expect(resolve).toBeHidden();
  await expect(detail.getByRole("region", { name: "Resolution" })).toContainText(
    "Fixed in 2.4.1, thank you!",
  );
  await expect(list.getByRole("link", { name: new RegExp(word) })).toContainText("Resolved");
  await shot(page, testInfo, "07-resolved");

  // Triage: ask the agent for more on the other item; the full view and the list show it. The item's
  // first read is answered before the change but arrives after it, as on a slow network: the view ends
  // on the change all the same.
  await page.goto(`${APP}/dashboard/${namespace}`);
  const changed = page.waitForResponse((r) => r.url().endsWith("/api/namespace/feedback/status"));
  await deliverLate(page, /\/api\/namespace\/feedback\?id=/, changed);
  await list.getByRole("link", { name: /Export the inbox as CSV/ }).click();
  await expect(detail.getByRole("heading", { name: "Export the inbox as CSV" })).toBeVisible();
  const triage = detail.getByRole("region", { name: "Triage" });
  await triage.getByLabel("Status").selectOption("needs_info");
  await triage.getByLabel("Message to the submitter").fill("Which columns do you need?");
  await triage.getByRole("button", { name: "Update" }).click();
  await expect(detail.getByRole("list", { name: "History" })).toContainText("Which columns do you need?");
  await expect(list.getByRole("link", { name: /Export the inbox as CSV/ })).toContainText("Needs info");
  await shot(page, testInfo, "07b-triage");

  // Export the view: a CSV download of the open items, as a spreadsheet reads it.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export this view as CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${namespace}-feedback-.*\\.csv$`));
  const csv = await readFile(await download.path(), "utf8");
  expect(csv.replace(/^\uFEFF/, "").split("\r\n")[0]).toMatch(/^id,namespace,type,status,/);
  expect(csv).toContain("needs_info");
  expect(csv).not.toContain(word);

  // Duplicates: the same request again is suggested into its group; the row counts the reports.
  await submitAsAgent(OWNER.privateKey, namespace, {
    type: "feature",
    title: "Export the inbox as a CSV file",
    description: "A CSV export would help triage in a spreadsheet.",
  });
  const exportRow = list.getByRole("link", { name: /Export the inbox as CSV/ });
  await expect(async () => {
    await page.reload();
    await expect(exportRow).toContainText("×2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const reports = detail.getByRole("list", { name: "Reports in this group" });
  await expect(reports).toContainText("Export the inbox as a CSV file");
  // Only a suggestion: marked so, and nothing done to it until the owner merges it or names it.
  await expect(reports).toContainText("suggested");

  // A differently worded one is merged by hand: pick both rows, merge; the group now holds three.
  await submitAsAgent(AGENT.privateKey, namespace, {
    type: "feature",
    title: "Spreadsheet download of all reports",
    description: "Please let us download everything.",
  });
  await page.reload();
  const other = list.getByRole("link", { name: /Spreadsheet download/ });
  await expect(other).toBeVisible();
  await page.getByRole("checkbox", { name: /Spreadsheet download/ }).click();
  await page.getByRole("checkbox", { name: /Export the inbox as CSV/ }).click();
  const bulk = page.getByRole("region", { name: "Selected items" });
  await expect(bulk).toContainText("2 selected");
  await shot(page, testInfo, "07c-bulk");
  await bulk.getByRole("button", { name: "Merge as duplicates" }).click();
  // It asks first, offering the row with the most reports as the lead.
  await page.getByRole("dialog").getByRole("button", { name: "Merge under the lead" }).click();
  await expect(exportRow).toContainText("×3");
  await expect(other).toHaveCount(0);
  await expect(bulk).toBeHidden();

  // Labels: the owner's own words on the item, shown on its row, and a filter by one.
  await detail.getByLabel("New label").fill("spreadsheets");
  await detail.getByRole("button", { name: "Add", exact: true }).click();
  await expect(detail.getByRole("list", { name: "Labels" })).toContainText("spreadsheets");
  await expect(exportRow).toContainText("spreadsheets");
  await page.getByRole("button", { name: "All", exact: true }).click();
  await page.getByLabel("Label", { exact: true }).selectOption("spreadsheets");
  await expect(page).toHaveURL(/label=spreadsheets/);
  await expect(list.getByRole("link")).toHaveCount(1);
  await page.getByLabel("Label", { exact: true }).selectOption("");
  await expect(page).not.toHaveURL(/label=/);

  // On a phone the inbox fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${APP}/dashboard/${namespace}?status=all`);
  await expect(list.getByRole("link")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, testInfo, "08-phone-inbox");
  expect(cspViolations).toEqual([]);

  // The agent signs in with its own wallet and sees the resolution.
  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  const agent = await injectWallet(agentPage, AGENT.privateKey);
  await agentPage.goto(`${APP}/submissions`);
  await agentPage.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  await agentPage.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
  await expect(agentPage.getByRole("heading", { name: "Your submissions", exact: true })).toBeVisible();
  const mine = agentPage.getByTestId("submission").filter({ hasText: word });
  await expect(mine).toContainText("Resolved");
  await expect(mine).toContainText("Fixed in 2.4.1, thank you!");
  const asked = agentPage
    .getByTestId("submission")
    .filter({ hasText: "Export the inbox as CSV" })
    .filter({ hasText: namespace });
  await expect(asked).toContainText("Needs info");
  await expect(asked.getByTestId("owner-note")).toContainText("Which columns do you need?");
  expect(agent.count("personal_sign")).toBe(1);
  await shot(agentPage, testInfo, "09-submissions");

  // Signing out ends the session on the server: even a copy of the old cookie stops working.
  const cookie = (await agentContext.cookies()).find((c) => c.name === "session");
  const statusWith = (value: string) =>
    fetch(`${APP}/api/namespace/status`, { headers: { cookie: `session=${value}` } });
  expect((await statusWith(cookie!.value)).status).toBe(200);
  await agentPage.getByRole("button", { name: /account menu/ }).click();
  await agentPage.getByRole("button", { name: "Sign out" }).click();
  await expect(agentPage.getByRole("main").getByRole("button", { name: "Connect wallet" })).toBeVisible();
  expect((await statusWith(cookie!.value)).status).toBe(402);
  await agentContext.close();
});
