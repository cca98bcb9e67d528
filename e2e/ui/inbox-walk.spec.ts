import { type BrowserContext, expect as baseExpect, type Page, test } from "@playwright/test";
import { shot } from "./helpers";
import {
  openAs,
  REPORTS,
  SIZES,
  type SizeName,
  scrollsSideways,
  seedWorld,
  signInState,
  WALLET_OF,
  type World,
  watchConsole,
} from "./walk-world";
import { devnet } from "./wallet";

// Labels in the history, range selection, the phone layout, empty states and shortcuts, at both sizes.
const expect = baseExpect.configure({ timeout: 20_000 });

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
let world: World;
let owner: StorageState;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  world = await seedWorld("inbox");
  owner = await signInState(browser, WALLET_OF.owner.privateKey);
});

async function ownerPage(browser: Parameters<typeof openAs>[0], size: SizeName, path: string) {
  const opened = await openAs(browser, "owner", size, { owner });
  await opened.page.goto(`${devnet.appUrl}${path}`);
  return opened;
}

const rows = (page: Page) => page.getByRole("list", { name: "Feedback items" }).getByRole("checkbox");
const bulk = (page: Page) => page.getByRole("region", { name: "Selected items" });

for (const size of Object.keys(SIZES) as SizeName[]) {
  test(`at ${size}, a label change reads as one in the history, never as a status`, async ({ browser }) => {
    const { context, page } = await ownerPage(
      browser,
      size,
      `/dashboard/${world.namespace}?item=${world.ids[5]}`,
    );
    try {
      const detail = page.getByRole("article");
      const label = `ux-${size}`;
      await detail.getByLabel("New label").fill(label);
      await detail.getByRole("button", { name: "Add", exact: true }).click();
      const history = detail.getByRole("list", { name: "History" });
      await expect(history).toContainText(`added the label ${label}`);
      await detail.getByRole("button", { name: `Remove the label ${label}` }).click();
      await expect(history).toContainText(`removed the label ${label}`);
      await expect(history).not.toContainText("set Open");
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, shift-click picks a range, also after Clear and after a bulk action`, async ({
    browser,
  }) => {
    const { context, page } = await ownerPage(browser, size, `/dashboard/${world.namespace}`);
    try {
      const boxes = rows(page);
      await expect(boxes.nth(5)).toBeVisible();
      await boxes.nth(0).click();
      await boxes.nth(2).click({ modifiers: ["Shift"] });
      await expect(bulk(page)).toContainText("3 selected");

      await bulk(page).getByRole("button", { name: "Clear" }).click();
      await expect(bulk(page)).toBeHidden();
      await boxes.nth(1).click();
      await boxes.nth(4).click({ modifiers: ["Shift"] });
      await expect(bulk(page)).toContainText("4 selected");

      // A bulk action (the rows stay in the Open view), then a new range.
      await bulk(page).getByLabel("Status for the selected items").selectOption("acknowledged");
      await bulk(page).getByRole("button", { name: "Set status" }).click();
      await expect(bulk(page)).toBeHidden();
      await expect(page.getByRole("list", { name: "Feedback items" })).toContainText("Acknowledged");
      await boxes.nth(2).click();
      await boxes.nth(5).click({ modifiers: ["Shift"] });
      await expect(bulk(page)).toContainText("4 selected");
      await expect(boxes.nth(3)).toBeChecked();
      await bulk(page).getByRole("button", { name: "Clear" }).click();
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, the filters leave room for the list, every tab shows, and alike titles are whole`, async ({
    browser,
  }, testInfo) => {
    const { context, page } = await ownerPage(browser, size, `/dashboard/${world.namespace}`);
    try {
      const first = page.getByRole("list", { name: "Feedback items" }).getByRole("link").first();
      await expect(first).toBeVisible();
      // Every type tab is inside the window, none cut at its edge.
      for (const tab of ["Everything", "Bugs", "Features", "Feedback"]) {
        const box = await page.getByRole("button", { name: new RegExp(`^${tab}\\s*\\d+$`) }).boundingBox();
        expect(box, tab).not.toBeNull();
        expect(box!.x + box!.width, tab).toBeLessThanOrEqual(SIZES[size].width);
      }
      const severity = page.getByLabel("Severity", { exact: true });
      if (size === "phone") {
        // The selects fold behind "Filters": from the type tabs to the first row is a few lines, not a screen.
        await expect(severity).toBeHidden();
        const tabs = await page.getByRole("button", { name: /^Everything\s*\d+$/ }).boundingBox();
        expect((await first.boundingBox())!.y - tabs!.y).toBeLessThan(150);
        await shot(page, testInfo, "inbox-phone-filters-folded");
        await page.getByRole("button", { name: "Filters" }).click();
        await expect(severity).toBeVisible();
        await severity.selectOption("high");
        await expect(page).toHaveURL(/severity=high/);
        await expect(page.getByRole("button", { name: "Filters · 1" })).toBeVisible();
        await severity.selectOption("");
      } else {
        await expect(severity).toBeVisible();
      }

      // The group's reports carry their whole titles, wrapped, never cut.
      await page.goto(`${devnet.appUrl}/dashboard/${world.namespace}?item=${world.grouped}`);
      const titles = page.getByRole("list", { name: "Reports in this group" }).getByTestId("group-title");
      await expect(titles.first()).toBeVisible();
      for (const title of await titles.all()) {
        await expect(title).toHaveText(REPORTS[0]!.title);
        expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      }
      await shot(page, testInfo, `inbox-${size}-group`);
      const { scrollWidth, innerWidth } = await scrollsSideways(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, a search with nothing open says where it matches, and clears`, async ({ browser }) => {
    const { context, page } = await ownerPage(browser, size, `/dashboard/${world.namespace}?q=pricing`);
    try {
      await expect(page.getByText("Nothing matches these filters")).toBeVisible();
      await page.getByRole("link", { name: "1 match under Resolved" }).click();
      await expect(page).toHaveURL(/status=resolved/);
      const list = page.getByRole("list", { name: "Feedback items" });
      await expect(list.getByRole("link")).toHaveCount(1);
      await expect(list).toContainText("Pricing page is clear");

      await page.goto(`${devnet.appUrl}/dashboard/${world.namespace}?q=zzzunfindable`);
      await expect(page.getByText("Nothing under Resolved either.")).toBeVisible();
      await page.getByRole("button", { name: "Clear filters" }).click();
      await expect(page).not.toHaveURL(/q=/);
      await expect(list.getByRole("link").first()).toBeVisible();
      await expect(page.getByRole("searchbox", { name: "Search the inbox" })).toHaveValue("");
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, "?" lists the shortcuts and gives focus back, and "r" resolves the open item`, async ({
    browser,
  }) => {
    const { context, page } = await ownerPage(
      browser,
      size,
      `/dashboard/${world.namespace}?item=${world.ids[6]}`,
    );
    try {
      const detail = page.getByRole("article");
      await expect(detail.getByRole("heading", { level: 2 })).toHaveText(REPORTS[6]!.title);
      const back =
        size === "phone"
          ? detail.getByRole("button", { name: "Back" })
          : page.getByRole("link", { name: "All namespaces" });
      await back.focus();
      await page.keyboard.press("?");
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await expect(help).toBeVisible();
      await expect(help).toContainText("Resolve the open item");
      await page.keyboard.press("Escape");
      await expect(help).toBeHidden();
      await expect(back).toBeFocused();

      await page.keyboard.press("r");
      const resolve = page.getByRole("dialog", { name: "Resolve this item" });
      await expect(resolve).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(resolve).toBeHidden();
    } finally {
      await context.close();
    }
  });

  test(`at ${size}, first loads of filtered, searched and opened views hydrate without an error`, async ({
    browser,
  }) => {
    // A reader whose browser formats numbers and times unlike the server's defaults.
    const { context, page } = await openAs(
      browser,
      "owner",
      size,
      { owner },
      { locale: "de-DE", timezoneId: "Asia/Tokyo" },
    );
    try {
      const errors = watchConsole(page);
      const views = [
        `?item=${world.ids[2]}`,
        "?status=all",
        "?q=notifications",
        `?type=bug&item=${world.grouped}`,
        "?status=resolved&sort=reports",
        "?label=mobile",
      ];
      for (const view of views) {
        await page.goto(`${devnet.appUrl}/dashboard/${world.namespace}${view}`);
        // In the page, if not on screen: on a phone an open item hides the list.
        await expect(page.locator("[data-item-id]").first()).toBeAttached();
        await page.waitForLoadState("networkidle");
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
