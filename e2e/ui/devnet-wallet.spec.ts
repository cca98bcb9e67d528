import { expect as baseExpect, test } from "@playwright/test";
import { watchCsp } from "./helpers";
import { devnet } from "./wallet";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 15_000 });

test("on the devnet, one click connects a funded test wallet that the local node signs for", async ({
  page,
}) => {
  const violations = await watchCsp(page);
  const wallet = devnet.accounts[6]!;
  await page.goto(`${devnet.appUrl}/dashboard`);
  await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect a wallet and sign in" });
  // This browser has no wallet extension: the dialog says so instead of offering a dead button.
  await expect(dialog).toContainText("No browser wallet found");
  await dialog.getByLabel("Test wallet").selectOption({ index: 6 });
  await dialog.getByRole("button", { name: "Use test wallet" }).click();
  await expect(page.getByRole("heading", { name: "Your namespaces", exact: true })).toBeVisible();
  const menu = page.getByRole("button", { name: /account menu/ });
  await expect(menu).toContainText(wallet.address.slice(0, 6));
  // The session and the wallet's permission survive a reload.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your namespaces", exact: true })).toBeVisible();
  await menu.click();
  await expect(page.getByText(wallet.address)).toBeVisible();
  await expect(page.getByText("No wallet connected")).toHaveCount(0);
  expect(violations).toEqual([]);
});
