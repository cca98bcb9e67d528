import { type BrowserContext, expect as baseExpect, test } from "@playwright/test";
import { formatUsdForPeople } from "../../lib/money";
import { OPERATIONS } from "../../lib/schemas/operations/catalog";
import { payAndPost } from "./helpers";
import { openAs, SIZES, type SizeName, signInState, WALLET_OF, watchConsole } from "./walk-world";
import { devnet } from "./wallet";

const expect = baseExpect.configure({ timeout: 20_000 });
const REGISTER_PRICE = `${formatUsdForPeople(OPERATIONS.register.price)} USD`;

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
let owner: StorageState;
const tag = Date.now().toString(36);
const foreign = `np-f-${tag}`;
const unknown = `np-nobody-${tag}`;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  await payAndPost(devnet.accounts[4]!.privateKey, "/api/namespace/register", { namespace: foreign });
  owner = await signInState(browser, WALLET_OF.owner.privateKey);
});

for (const size of Object.keys(SIZES) as SizeName[]) {
  test(`at ${size}, a name nobody registered says so and offers it, priced from the catalogue`, async ({
    browser,
  }) => {
    const { context, page } = await openAs(browser, "owner", size, { owner });
    try {
      const errors = watchConsole(page);
      for (const path of ["", "/insights", "/webhooks"]) {
        await page.goto(`${devnet.appUrl}/dashboard/${unknown}${path}`);
        await expect(page.getByRole("heading", { name: `${unknown} is not registered` })).toBeVisible();
        // None of the inbox's chrome around it, and no error to retry.
        for (const link of ["Export this view as CSV", "Insights", "Webhooks"]) {
          await expect(page.getByRole("link", { name: link, exact: true })).toHaveCount(0);
        }
        await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
        await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
      }
      await page.getByRole("link", { name: `Register this name for ${REGISTER_PRICE}` }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard\\?register=${unknown}`));
      await expect(page.getByRole("textbox", { name: "Namespace name" })).toHaveValue(unknown);
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, someone else's namespace says it is not yours`, async ({ browser }) => {
    const { context, page } = await openAs(browser, "owner", size, { owner });
    try {
      const errors = watchConsole(page);
      for (const path of ["", "/insights", "/webhooks"]) {
        await page.goto(`${devnet.appUrl}/dashboard/${foreign}${path}`);
        await expect(page.getByRole("heading", { name: `${foreign} is not yours` })).toBeVisible();
        await expect(page.getByRole("link", { name: /Register this name/ })).toHaveCount(0);
        await expect(page.getByRole("link", { name: "Your namespaces" })).toBeVisible();
        await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
      }
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, a name no namespace can have says it is invalid and offers nothing to pay for`, async ({
    browser,
  }) => {
    const { context, page } = await openAs(browser, "owner", size, { owner });
    try {
      const errors = watchConsole(page);
      const asked: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/") && /bad_name/i.test(decodeURIComponent(r.url()))) asked.push(r.url());
      });
      for (const [name, path] of [
        ["Bad_Name!", ""],
        ["ab", "/insights"],
        ["-starts-with-a-hyphen", "/webhooks"],
      ] as const) {
        await page.goto(`${devnet.appUrl}/dashboard/${encodeURIComponent(name)}${path}`);
        await expect(
          page.getByRole("heading", { name: `${name} is not a valid namespace name` }),
        ).toBeVisible();
        await expect(page.getByRole("main")).toContainText("lowercase letters, digits and hyphens");
        await expect(page.getByRole("link", { name: /Register this name/ })).toHaveCount(0);
        await expect(page.getByRole("main")).not.toContainText(REGISTER_PRICE);
        await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
        await expect(page.getByRole("link", { name: "Your namespaces" })).toBeVisible();
      }
      await page.waitForLoadState("networkidle");
      expect(asked, "nothing is asked about a name no namespace can have").toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
