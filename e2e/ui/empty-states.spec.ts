import { expect as baseExpect, test } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import { watchCsp } from "./helpers";
import { devnet, injectWallet } from "./wallet";

const expect = baseExpect.configure({ timeout: 15_000 });

test("a new wallet sees friendly empty states, and a signed-out visitor is asked to sign in", async ({
  page,
}) => {
  const violations = await watchCsp(page);
  await page.goto(`${devnet.appUrl}/submissions`);
  await expect(
    page.getByRole("heading", { name: "Sign in with the wallet your agent pays from" }),
  ).toBeVisible();
  // Signing in needs no funds: a wallet nobody has used before.
  await injectWallet(page, generatePrivateKey());
  await page.reload();
  // With the keyboard: the prompt's button, then the wallet; pressed again only if a press met an unhydrated page.
  const dialog = page.getByRole("dialog", { name: "Connect a wallet and sign in" });
  await expect(async () => {
    if (!(await dialog.isVisible())) {
      await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).focus();
      await page.keyboard.press("Enter");
    }
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await dialog.getByRole("button", { name: "Browser wallet" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Nothing submitted from this wallet yet")).toBeVisible();
  // The prompt left with its button: focus goes to who is signed in, not back to the page's start.
  await expect(page.getByRole("button", { name: /account menu/ })).toBeFocused();
  await page.getByRole("link", { name: "Inbox" }).click();
  await expect(page.getByText("No namespaces yet")).toBeVisible();
  await expect(page.getByRole("button", { name: /Pay 1.00 USD and register/ })).toBeVisible();
  await page.goto(`${devnet.appUrl}/dashboard/nobody-owns-this`);
  await expect(page.getByRole("heading", { name: "nobody-owns-this is not registered" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Register this name for / })).toBeVisible();
  expect(violations).toEqual([]);
});
