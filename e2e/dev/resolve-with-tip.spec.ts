import { expect as baseExpect, test } from "@playwright/test";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { payAndPost, submitAsAgent } from "../ui/helpers";
import { devnet, injectWallet } from "../ui/wallet";

// next dev compiles each page on its first visit: give each expectation room.
const expect = baseExpect.configure({ timeout: 60_000 });
const OWNER = devnet.accounts[6]!;
const AGENT = devnet.accounts[7]!;
const APP = devnet.appUrl;

// On `npm run dev`, as a newcomer tries it: the owner signs in, opens a report, resolves it with a tip its
// wallet pays, and the agent that filed it sees the answer and the tip. React's development build runs
// each effect twice, which once closed the resolve dialog the instant it opened.
test("on npm run dev, an owner resolves a report with a tip, and its submitter sees both", async ({
  browser,
}) => {
  const namespace = `dev-${Date.now().toString(36)}`;
  await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
  const id = await submitAsAgent(AGENT.privateKey, namespace, {
    type: "bug",
    title: "The export button does nothing on Safari",
    description: "Clicking Export on the inbox page sends no request and shows no error.",
  });

  const context = await browser.newContext();
  const page = await context.newPage();
  await injectWallet(page, OWNER.privateKey);
  await page.goto(`${APP}/dashboard`);
  await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
  await expect(page.getByRole("heading", { name: "Your namespaces", exact: true })).toBeVisible();

  await page.goto(`${APP}/dashboard/${namespace}?item=${id}`);
  const detail = page.getByRole("article");
  await detail.getByRole("button", { name: "Resolve", exact: true }).click();
  const resolve = page.getByRole("dialog", { name: "Resolve this item" });
  await expect(resolve).toBeVisible();
  // Still open once React has run its effects again: a person has time to type.
  await page.waitForTimeout(1_500);
  await expect(resolve).toBeVisible();
  await resolve.getByLabel(/Message to the submitter/).fill("Fixed in 2.4.1, thank you!");
  await resolve.getByLabel(/^Tip/).fill("0.1");
  await resolve.getByRole("button", { name: /^Pay .* and resolve$/ }).click();
  await expect(resolve).toBeHidden();
  const resolution = detail.getByRole("region", { name: "Resolution" });
  await expect(resolution).toContainText("Fixed in 2.4.1");
  await expect(resolution).toContainText("Tip paid");
  await context.close();

  // The submitter reads the answer and its tip, signed in with the wallet that paid for the report.
  const agent = createSignInFetch(AGENT.privateKey, fetch);
  const mine = await (await agent.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)).json();
  expect(mine.feedback).toEqual([
    expect.objectContaining({
      id,
      resolved: true,
      resolveMessage: "Fixed in 2.4.1, thank you!",
      rewardAmount: "0.1",
    }),
  ]);
  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await injectWallet(agentPage, AGENT.privateKey);
  await agentPage.goto(`${APP}/submissions`);
  await agentPage.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  await agentPage.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
  await expect(agentPage.getByRole("heading", { name: "Your submissions", exact: true })).toBeVisible();
  const report = agentPage.getByTestId("submission").filter({ hasText: namespace });
  await expect(report).toContainText("Resolved");
  await expect(report).toContainText("Fixed in 2.4.1, thank you!");
  await expect(report).toContainText(/Tip received: 0\.10? USD/);
  await agentContext.close();
});
