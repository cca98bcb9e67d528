import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  expect as baseExpect,
  type Page,
} from "@playwright/test";
import type { Hex } from "viem";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import type { DevAccount } from "../../scripts/devnet/accounts";
import { payAndPost, submitAsAgent } from "./helpers";
import { devnet, injectWallet } from "./wallet";
import { closedPortUrl } from "./webhook-receiver";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * The dashboard walked as an owner and a submitter: every page, the wallets that see them and a namespace
 * of realistic reports. Specs that check every page (no sideways scroll, a clean console, accessibility)
 * import the list from here, so a new page is added once.
 */

/** accounts[6] owns the walked namespace; the reports come from three agent wallets. */
export const OWNER = devnet.accounts[6]!;
export const SUBMITTERS = [devnet.accounts[7]!, devnet.accounts[4]!, devnet.accounts[5]!] as const;
/** The submitter whose /submissions page is walked (it filed the reports the owner asks about). */
export const SUBMITTER = SUBMITTERS[0];
/** Registers the namespace the owner may not read. */
const STRANGER = devnet.accounts[4]!;

export const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type SizeName = keyof typeof SIZES;

type Report = {
  type: "bug" | "feature" | "feedback";
  title: string;
  description: string;
  severity?: string;
  context?: string;
};

/** Thirty reports as agents write them; the first two say the same thing (a group of duplicates). */
export const REPORTS: readonly Report[] = [
  {
    type: "bug",
    title: "Notifications stop arriving after the app is backgrounded for ten minutes",
    description:
      "Push notifications stop arriving once the app has been in the background for about ten minutes; reopening it delivers them all at once.",
    severity: "high",
  },
  {
    type: "bug",
    title: "Notifications stop arriving after the app is backgrounded for ten minutes",
    description:
      "Push notifications stop arriving once the app has been in the background for about ten minutes; reopening it delivers them all at once.",
    severity: "high",
  },
  {
    type: "bug",
    title: "Checkout button does nothing on Safari 17",
    description: "Clicking Pay on /checkout leaves the page unchanged; the console shows a TypeError.",
    severity: "critical",
    // Over a thousand characters: the item shows its length with a thousands separator.
    context: JSON.stringify({
      console: Array.from({ length: 40 }, (_, i) => `TypeError at checkout.js:${i}`),
    }),
  },
  {
    type: "feature",
    title: "Export invoices as PDF",
    description: "Accountants ask for a PDF of each invoice instead of the HTML page.",
    severity: "low",
  },
  {
    type: "feedback",
    title: "The onboarding tour is too long",
    description: "Seven steps before the first useful screen; most users skip it at step two.",
  },
  {
    type: "bug",
    title: "Search ignores accented letters",
    description: "Searching for 'cafe' does not find 'café', although the docs say search folds accents.",
    severity: "medium",
  },
  {
    type: "bug",
    title: "API /v1/orders returns 500 for an empty cart",
    description: "GET /v1/orders?cart=empty answers 500 instead of an empty list.",
    severity: "high",
  },
  {
    type: "feature",
    title: "Dark mode for the dashboard",
    description: "Working at night, the white dashboard is hard on the eyes; a dark theme would help.",
  },
  {
    type: "feedback",
    title: "Pricing page is clear",
    description: "The per-item price is easy to understand and the examples help a lot.",
  },
  {
    type: "bug",
    title: "Password reset email arrives twice",
    description: "Requesting a reset sends two emails a few seconds apart, with different links.",
    severity: "medium",
  },
  {
    type: "feature",
    title: "Webhook for new signups",
    description: "A webhook when a user signs up would let us sync our CRM without polling.",
  },
  {
    type: "bug",
    title: "Date picker shows the wrong month in January",
    description: "Opening the date picker on 31 January shows March, skipping February entirely.",
    severity: "medium",
  },
  {
    type: "feedback",
    title: "Docs examples are out of date",
    description: "The Python example still uses the v1 client, which no longer installs.",
  },
  {
    type: "bug",
    title: "Avatar upload fails for PNG files over 2 MB",
    description: "Uploading a 2.5 MB PNG shows a spinner forever; smaller files work.",
    severity: "low",
  },
  {
    type: "feature",
    title: "Keyboard shortcut to archive",
    description: "Power users would like a single key to archive the open conversation.",
  },
  {
    type: "bug",
    title: "Logout does not clear the session on mobile",
    description: "After logging out in the mobile web app, pressing back shows the account page again.",
    severity: "high",
  },
  {
    type: "feedback",
    title: "Support answered within minutes",
    description: "Great experience with support today; the answer solved the problem at once.",
  },
  {
    type: "bug",
    title: "CSV export drops the last row",
    description: "Exporting 100 rows gives a file with 99 rows; the newest row is always missing.",
    severity: "medium",
  },
  {
    type: "feature",
    title: "Two-factor authentication with passkeys",
    description: "Please support passkeys as a second factor, not only TOTP codes.",
  },
  {
    type: "bug",
    title: "Map tiles do not load behind a corporate proxy",
    description: "Behind our proxy the map stays grey; tile requests go to a host the proxy blocks.",
    severity: "low",
  },
  {
    type: "feedback",
    title: "The new editor feels slower",
    description: "Typing in long documents lags since the last release, about 200 ms per key.",
  },
  {
    type: "bug",
    title: "Timezone shown as UTC in emails",
    description: "Reminder emails show times in UTC even when the account timezone is Europe/Paris.",
    severity: "medium",
  },
  {
    type: "feature",
    title: "Bulk edit of tags",
    description: "Changing a tag on fifty items one at a time takes too long; a bulk edit would help.",
  },
  {
    type: "bug",
    title: "Infinite spinner when the session expires",
    description:
      "After the session expires, any action shows a spinner forever instead of asking to sign in.",
    severity: "high",
  },
  {
    type: "feedback",
    title: "Love the command palette",
    description: "The command palette makes everything faster; please add more commands to it.",
  },
  {
    type: "bug",
    title: "Copy button copies the wrong snippet",
    description: "On the API page, the copy button of the second snippet copies the first one.",
    severity: "low",
  },
  {
    type: "feature",
    title: "Slack notifications per channel",
    description: "We would like to route bug reports and feature requests to different Slack channels.",
  },
  {
    type: "bug",
    title: "Images in comments are not lazy loaded",
    description: "A thread with forty screenshots downloads all of them before showing the first comment.",
    severity: "low",
  },
  {
    type: "feedback",
    title: "Mobile layout is cramped",
    description: "On a small phone the toolbar covers the first line of the text being edited.",
  },
  {
    type: "bug",
    title: "Rate limit message shows a raw JSON body",
    description: "When the API answers 429 the app shows the JSON body instead of a readable message.",
    severity: "medium",
  },
];

/** What the walk needs to know about the seeded data. */
export type World = {
  namespace: string;
  /** Registered by another wallet: the owner may not read it. */
  foreign: string;
  /** Registered by nobody. */
  unknown: string;
  /** The owner's second namespace: nothing filed to it, its webhook in Slack's format. */
  empty: string;
  /** A report in the foreign namespace: a link to it from the owner's inbox names an item not there. */
  foreignItem: string;
  /** Item ids in the order of REPORTS. */
  ids: string[];
  /** The head of the group of duplicates (REPORTS[0]). */
  grouped: string;
  /** An item the owner asked its submitter about (status needs_info). */
  asked: string;
  /** The one resolved item (REPORTS[8], "Pricing page is clear"). */
  resolved: string;
};

/** A signed-in (SIWX) call of the owner's, as a script would make it. */
export async function asOwner(path: string, body: Record<string, unknown>, method = "POST") {
  const owner = createSignInFetch(OWNER.privateKey);
  const res = await owner.fetch(`${devnet.appUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return res.json();
}

/** Files REPORTS from the three wallets, each wallet's in order, the wallets side by side. */
async function fileReports(namespace: string, reports: readonly Report[]): Promise<string[]> {
  const ids: string[] = new Array(reports.length);
  // The two duplicates first, from two wallets, so the second is compared with the first.
  ids[0] = await submitAsAgent(SUBMITTERS[0].privateKey, namespace, { ...reports[0] });
  ids[1] = await submitAsAgent(SUBMITTERS[1].privateKey, namespace, { ...reports[1] });
  await Promise.all(
    SUBMITTERS.map(async (wallet, w) => {
      for (let i = 2 + w; i < reports.length; i += SUBMITTERS.length) {
        ids[i] = await submitAsAgent(wallet.privateKey, namespace, { ...reports[i] });
      }
    }),
  );
  return ids;
}

/**
 * Seeds a world: a namespace of the owner's with `reports` (all thirty by default) from three wallets, a
 * label on the grouped report, a question on one of the submitter's, and a namespace of another wallet.
 */
export async function seedWorld(prefix = "walk", reports: readonly Report[] = REPORTS): Promise<World> {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const namespace = `${prefix}-${tag}`;
  const foreign = `${prefix}-f-${tag}`;
  const empty = `${prefix}-e-${tag}`;
  await Promise.all([
    payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace }),
    payAndPost(STRANGER.privateKey, "/api/namespace/register", { namespace: foreign }),
    payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace: empty }),
  ]);
  const [ids, foreignItem] = await Promise.all([
    fileReports(namespace, reports),
    submitAsAgent(SUBMITTERS[2].privateKey, foreign, { ...reports[2]! }),
    asOwner(
      "/api/namespace/webhook",
      { namespace: empty, url: await closedPortUrl(), format: "slack" },
      "PATCH",
    ),
  ]);
  // Filed by SUBMITTER (each wallet files every third report from its first), so its /submissions asks.
  const asked = ids[11]!;
  await asOwner("/api/namespace/feedback/labels", { namespace, feedbackIds: [ids[0]], add: ["mobile"] });
  await asOwner("/api/namespace/feedback/status", {
    namespace,
    feedbackIds: [asked],
    status: "needs_info",
    message: "Which invoice template do you use?",
  });
  const resolved = ids[8]!;
  await asOwner("/api/namespace/resolve", { feedbackId: resolved, message: "Thank you!" });
  return {
    namespace,
    foreign,
    unknown: `${prefix}-nobody-${tag}`,
    empty,
    foreignItem,
    ids,
    grouped: ids[0]!,
    asked,
    resolved,
  };
}

/** Who a page is seen as: the namespace's owner, the submitter, or a visitor not signed in. */
export type Role = "owner" | "submitter" | "visitor";

/** One page of the walk: where it is, who sees it, and what shows once it has loaded. */
export type WalkPage = {
  name: string;
  role: Role;
  path: (world: World) => string;
  ready: (page: Page, world: World) => Promise<void>;
  /** The one console line the page may show: the browser's own report of a read it was refused. */
  refusedRead?: number;
};

const heading = (page: Page, name: string | RegExp) =>
  expect(page.getByRole("heading", { name }).first()).toBeVisible();

/** Every page of the dashboard. */
export const WALK_PAGES: readonly WalkPage[] = [
  {
    name: "landing",
    role: "visitor",
    path: () => "/",
    ready: (page) => heading(page, /An inbox for what agents find broken/),
  },
  {
    name: "dashboard signed out",
    role: "visitor",
    path: () => "/dashboard",
    ready: (page) => heading(page, "Sign in to see your namespaces"),
  },
  {
    name: "namespaces",
    role: "owner",
    path: () => "/dashboard",
    ready: (page, world) =>
      expect(page.getByRole("link", { name: new RegExp(world.namespace) })).toBeVisible(),
  },
  {
    name: "inbox",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}`,
    ready: (page) =>
      expect(page.getByRole("list", { name: "Feedback items" }).getByRole("link").first()).toBeVisible(),
  },
  {
    name: "item",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}?item=${world.grouped}`,
    ready: (page) => expect(page.getByRole("list", { name: "History" })).toBeVisible(),
  },
  {
    name: "inbox searched",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}?status=all&q=stop`,
    ready: (page) =>
      expect(page.getByRole("list", { name: "Feedback items" }).locator("mark").first()).toBeVisible(),
  },
  {
    name: "new namespace",
    role: "owner",
    path: (world) => `/dashboard/${world.empty}`,
    ready: (page) => expect(page.getByText("No feedback yet")).toBeVisible(),
  },
  {
    name: "item of another namespace",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}?item=${world.foreignItem}`,
    ready: (page, world) => heading(page, `This item is not in ${world.namespace}`),
    refusedRead: 403,
  },
  {
    name: "invalid namespace name",
    role: "owner",
    path: () => "/dashboard/Bad_Name!",
    ready: (page) => heading(page, /is not a valid namespace name/),
  },
  {
    name: "webhooks in Slack format",
    role: "owner",
    path: (world) => `/dashboard/${world.empty}/webhooks`,
    ready: (page) => expect(page.getByLabel("Message format")).toHaveValue("slack"),
  },
  {
    name: "insights",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}/insights`,
    ready: (page) => expect(page.getByTestId("insights-period")).toBeVisible(),
  },
  {
    name: "webhooks",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}/webhooks`,
    ready: (page) => expect(page.getByRole("textbox", { name: "Endpoint URL" })).toBeVisible(),
  },
  {
    name: "members",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}/members`,
    ready: (page) => expect(page.getByRole("form", { name: "Add a member" })).toBeVisible(),
  },
  {
    name: "accept a transfer",
    role: "owner",
    path: (world) => `/dashboard/${world.namespace}/accept`,
    ready: (page) => expect(page.getByRole("button", { name: "Accept and become the owner" })).toBeVisible(),
  },
  {
    name: "submissions",
    role: "submitter",
    path: () => "/submissions",
    ready: (page) => expect(page.getByTestId("submission").first()).toBeVisible(),
  },
  {
    name: "unknown namespace",
    role: "owner",
    path: (world) => `/dashboard/${world.unknown}`,
    ready: (page) => heading(page, /is not registered/),
  },
  {
    name: "foreign namespace",
    role: "owner",
    path: (world) => `/dashboard/${world.foreign}`,
    ready: (page) => heading(page, /is not yours/),
  },
  {
    name: "unknown namespace insights",
    role: "owner",
    path: (world) => `/dashboard/${world.unknown}/insights`,
    ready: (page) => heading(page, /is not registered/),
  },
  {
    name: "unknown namespace webhooks",
    role: "owner",
    path: (world) => `/dashboard/${world.unknown}/webhooks`,
    ready: (page) => heading(page, /is not registered/),
  },
  {
    name: "foreign namespace insights",
    role: "owner",
    path: (world) => `/dashboard/${world.foreign}/insights`,
    ready: (page) => heading(page, /is not yours/),
  },
  {
    name: "foreign namespace webhooks",
    role: "owner",
    path: (world) => `/dashboard/${world.foreign}/webhooks`,
    ready: (page) => heading(page, /is not yours/),
  },
];

/** The wallet each signed-in role uses. */
export const WALLET_OF: Record<Exclude<Role, "visitor">, DevAccount> = { owner: OWNER, submitter: SUBMITTER };

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** Signs `privateKey` in through the dashboard's connect dialog; the session cookie, to reuse in new contexts. */
export async function signInState(browser: Browser, privateKey: Hex): Promise<StorageState> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await injectWallet(page, privateKey);
    await page.goto(`${devnet.appUrl}/submissions`);
    await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
    await expect(page.getByRole("heading", { name: "Your submissions", exact: true })).toBeVisible({
      timeout: 30_000,
    });
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A page at `size`, signed in as `role` with `states` (from signInState), its wallet injected. */
export async function openAs(
  browser: Browser,
  role: Role,
  size: SizeName,
  states: Partial<Record<Role, StorageState>>,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...options, viewport: SIZES[size], storageState: states[role] });
  const page = await context.newPage();
  if (role !== "visitor") await injectWallet(page, WALLET_OF[role].privateKey);
  return { context, page };
}

/** Console errors and uncaught page errors, as someone debugging would see them in devtools. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** Whether the page scrolls sideways: its scrolling element is wider than the window. */
export function scrollsSideways(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
}

/**
 * SUBMITTER's /submissions page at `size`, its browser wallet connected, and its card of the report filed to
 * `namespace`. The caller closes `context`.
 */
export async function openSubmissions(browser: Browser, size: SizeName, namespace: string) {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  await injectWallet(page, SUBMITTER.privateKey);
  await page.goto(`${devnet.appUrl}/submissions`);
  await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
  return { context, page, mine: page.getByTestId("submission").filter({ hasText: namespace }) };
}
