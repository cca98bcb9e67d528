import { type Browser, expect as baseExpect, test } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { payAndPost, shot, submitAsAgent } from "./helpers";
import { OWNER, openAs, SUBMITTER, SUBMITTERS, signInState } from "./walk-world";
import { devnet, injectWallet } from "./wallet";

const expect = baseExpect.configure({ timeout: 20_000 });

/** A page signed in as `privateKey` (its session, its wallet injected) at the desktop size. */
async function signedInPage(browser: Browser, privateKey: Hex) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    storageState: await signInState(browser, privateKey),
  });
  const page = await context.newPage();
  await injectWallet(page, privateKey);
  return { context, page };
}

test("the owner adds a triager who triages, and hands the namespace to a wallet that accepts it", async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const namespace = `team-${Date.now().toString(36)}`;
  await payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace });
  const item = await submitAsAgent(SUBMITTER.privateKey, namespace, {
    type: "bug",
    title: "Invoice PDF has the wrong VAT number",
    description: "The VAT number on every invoice PDF is the one of the previous year.",
  });
  const triager = SUBMITTERS[1];
  const next = SUBMITTERS[2];
  const triagerAddress = privateKeyToAccount(triager.privateKey).address;
  const nextAddress = privateKeyToAccount(next.privateKey).address;

  const owner = await openAs(browser, "owner", "desktop", {
    owner: await signInState(browser, OWNER.privateKey),
  });
  try {
    const { page } = owner;
    await page.goto(`${devnet.appUrl}/dashboard/${namespace}`);
    await page.getByRole("link", { name: "Members" }).click();
    const add = page.getByRole("form", { name: "Add a member" });
    await add.getByLabel("Wallet address").fill("0xnot-an-address");
    await add.getByRole("button", { name: "Add member" }).click();
    await expect(add.getByText(/wallet/i).last()).toBeVisible();
    await add.getByLabel("Wallet address").fill(triagerAddress);
    await add.getByLabel("Role").selectOption("triager");
    await add.getByRole("button", { name: "Add member" }).click();
    const members = page.getByRole("list", { name: "Members" });
    await expect(members.getByRole("listitem")).toHaveCount(1);
    await expect(members.getByLabel(`Role of ${triagerAddress}`)).toHaveValue("triager");
    await shot(page, testInfo, "team-members");
  } finally {
    await owner.context.close();
  }

  // The triager signs in, finds the namespace with its role, and triages the item.
  const member = await signedInPage(browser, triager.privateKey);
  try {
    const { page } = member;
    await page.goto(`${devnet.appUrl}/dashboard`);
    await expect(page.getByRole("link", { name: new RegExp(namespace) })).toContainText("Triager");
    await page.goto(`${devnet.appUrl}/dashboard/${namespace}?status=all&item=${item}`);
    const triage = page.getByRole("article").getByRole("region", { name: "Triage" });
    await triage.getByLabel("Status").selectOption("acknowledged");
    await triage.getByRole("button", { name: "Update" }).click();
    await expect(page.getByRole("article").getByRole("list", { name: "History" })).toContainText(
      /acknowledged/i,
    );
    // What its role may not do is not offered: no webhooks, and a resolve without a tip.
    await expect(page.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
    await page.getByRole("article").getByRole("button", { name: "Resolve", exact: true }).click();
    const resolve = page.getByRole("dialog", { name: "Resolve this item" });
    await expect(resolve).toContainText("only the owner and admins tip");
    await expect(resolve.getByRole("button", { name: /Pay/ })).toHaveCount(0);
    await resolve.getByRole("button", { name: "Cancel" }).click();
    // A triager adds no members: the page says so instead of offering the form.
    await page.goto(`${devnet.appUrl}/dashboard/${namespace}/members`);
    await expect(page.getByText("Only the owner and admins add members.")).toBeVisible();
  } finally {
    await member.context.close();
  }

  // The owner proposes a transfer, confirming the wallet it names; that wallet accepts.
  const again = await openAs(browser, "owner", "desktop", {
    owner: await signInState(browser, OWNER.privateKey),
  });
  try {
    const { page } = again;
    await page.goto(`${devnet.appUrl}/dashboard/${namespace}/members`);
    const transfer = page.getByRole("region", { name: "Transfer" });
    await transfer.getByLabel("New owner's wallet address").fill(nextAddress);
    await transfer.getByRole("button", { name: "Propose a transfer" }).click();
    await expect(transfer.getByRole("alert")).toContainText(nextAddress);
    await transfer.getByRole("button", { name: "Yes, propose the transfer" }).click();
    await expect(transfer).toContainText(`Proposed to ${nextAddress}`);
  } finally {
    await again.context.close();
  }
  const heir = await signedInPage(browser, next.privateKey);
  try {
    const { page } = heir;
    await page.goto(`${devnet.appUrl}/dashboard/${namespace}/accept`);
    await page.getByRole("button", { name: "Accept and become the owner" }).click();
    await expect(page.getByText(/You own/)).toBeVisible();
    await page.getByRole("link", { name: "Open the inbox" }).click();
    await page.getByRole("link", { name: "Members" }).click();
    const members = page.getByRole("list", { name: "Members" });
    await expect(members.getByLabel(`Role of ${privateKeyToAccount(OWNER.privateKey).address}`)).toHaveValue(
      "admin",
    );
    await shot(page, testInfo, "team-after-transfer");
  } finally {
    await heir.context.close();
  }
});
