import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, expect as baseExpect, type Page, test } from "@playwright/test";
import type { Hex } from "viem";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { axeViolations, expectKeyboardReachable } from "./a11y-checks";
import { payAndPost, submitAsAgent } from "./helpers";
import { devnet, injectWallet } from "./wallet";
import { closedPortUrl, startReceiver } from "./webhook-receiver";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 20_000 });

// accounts[6] owns the namespace, as in the journey; three wallets report into it. accounts[5] is the
// submitter whose page is checked: no other ui file signs it out.
const OWNER = devnet.accounts[6]!;
const REPORTERS = [devnet.accounts[7]!, devnet.accounts[5]!, devnet.accounts[4]!];
const SUBMITTER = devnet.accounts[5]!;
const APP = devnet.appUrl;

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
type Who = "visitor" | "owner" | "submitter";

/** What the views need to find: filled once the namespace is seeded. */
const seeded = {
  namespace: `a11y-${Date.now().toString(36)}`,
  /** The owner's second namespace: nothing filed, its webhook in Slack's format. */
  empty: `a11y-e-${Date.now().toString(36)}`,
  /** Rows the inbox shows with every status: reports minus those merged into another's group. */
  rows: 0,
  /** An open report heading a group, with steps, expectations, metadata and labels. */
  richId: "",
  resolvedId: "",
};
const inbox = (query = "") => `/dashboard/${seeded.namespace}${query}`;

/**
 * One page view of the ui journey: where it is, who looks at it, and how to know its data has
 * rendered (and any dialog is open) before axe reads it. Add a view here and it is checked at both
 * sizes, by axe and by the keyboard.
 */
type View = {
  name: string;
  who: Who;
  path: () => string;
  ready: (page: Page) => Promise<void>;
  /**
   * The view of another with the same controls (search highlights on the inbox, say): axe reads it, and
   * the keyboard pass, which would press Tab through the same controls again, is left to the other.
   */
  sameControlsAs?: string;
};

const rowsOf = (page: Page) => page.getByRole("list", { name: "Feedback items" }).getByRole("link");

const VIEWS: View[] = [
  {
    name: "landing",
    who: "visitor",
    path: () => "/",
    ready: async (page) => {
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("button", { name: "Copy snippet" })).toBeVisible();
    },
  },
  {
    name: "dashboard, signed out",
    who: "visitor",
    path: () => "/dashboard",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Sign in to see your namespaces" })).toBeVisible();
    },
  },
  {
    name: "connect-wallet dialog",
    who: "visitor",
    path: () => "/dashboard",
    ready: async (page) => {
      const dialog = page.getByRole("dialog", { name: "Connect a wallet and sign in" });
      const trigger = page.getByRole("main").getByRole("button", { name: "Connect wallet" });
      await openUntilShown(dialog, () => trigger.click());
      await expect(dialog.getByRole("button", { name: "Browser wallet" })).toBeVisible();
    },
  },
  {
    name: "inbox, signed out",
    who: "visitor",
    path: () => inbox(),
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Sign in to read this inbox" })).toBeVisible();
    },
  },
  {
    name: "submissions, signed out",
    who: "visitor",
    path: () => "/submissions",
    ready: async (page) => {
      await expect(
        page.getByRole("heading", { name: "Sign in with the wallet your agent pays from" }),
      ).toBeVisible();
    },
  },
  {
    name: "404, signed out",
    who: "visitor",
    path: () => "/no-such-page",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
    },
  },
  {
    name: "landing, signed in",
    who: "owner",
    path: () => "/",
    ready: async (page) => {
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("button", { name: /account menu/ })).toBeVisible();
    },
  },
  {
    name: "namespaces",
    who: "owner",
    path: () => "/dashboard",
    ready: async (page) => {
      await expect(page.getByRole("link", { name: new RegExp(seeded.namespace) })).toContainText("open");
      // The register button turns enabled once the wallet reconnects.
      await expect(page.getByRole("button", { name: /Pay .* and register/ })).toBeEnabled();
    },
  },
  {
    name: "inbox",
    who: "owner",
    path: () => inbox("?status=all"),
    ready: async (page) => {
      await expect(rowsOf(page)).toHaveCount(seeded.rows);
    },
  },
  {
    name: "inbox, bulk-action bar",
    who: "owner",
    path: () => inbox("?status=all"),
    ready: async (page) => {
      await expect(rowsOf(page)).toHaveCount(seeded.rows);
      const boxes = page.getByRole("checkbox");
      await boxes.nth(1).check();
      await boxes.nth(2).check();
      await expect(page.getByRole("region", { name: "Selected items" })).toContainText("2 selected");
    },
  },
  {
    name: "inbox, filters open and the shortcut list",
    who: "owner",
    path: () => inbox("?status=all"),
    ready: async (page) => {
      await expect(rowsOf(page)).toHaveCount(seeded.rows);
      // On a phone the selects fold behind "Filters"; open them so axe reads them too.
      const filters = page.getByRole("button", { name: /^Filters/ });
      if (await filters.isVisible()) {
        await filters.click();
        await expect(filters).toHaveAttribute("aria-expanded", "true");
      } else {
        // Away from the search box, which takes the first focus on a desktop (a "?" typed there is text).
        await page.getByRole("link", { name: "All namespaces" }).focus();
      }
      await page.keyboard.press("?");
      await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    },
  },
  {
    name: "item",
    who: "owner",
    path: () => inbox(`?status=all&item=${seeded.richId}`),
    ready: async (page) => {
      await expect(
        page.getByRole("article").getByRole("list", { name: "Reports in this group" }),
      ).toBeVisible();
      await expect(page.getByRole("article").getByRole("list", { name: "Labels" })).toContainText("checkout");
    },
  },
  {
    name: "item, resolve dialog",
    who: "owner",
    path: () => inbox(`?status=all&item=${seeded.richId}`),
    ready: async (page) => {
      await page.getByRole("article").getByRole("button", { name: "Resolve", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Resolve this item" });
      await expect(dialog).toContainText("No tip: resolving is free.");
    },
  },
  {
    name: 'item, "needs info" without a question',
    who: "owner",
    path: () => inbox(`?status=all&item=${seeded.richId}`),
    ready: async (page) => {
      const triage = page.getByRole("article").getByRole("region", { name: "Triage" });
      await triage.getByLabel("Status").selectOption("needs_info");
      await triage.getByRole("button", { name: "Update" }).click();
      await expect(triage.getByRole("alert")).toContainText("Write the question");
    },
  },
  {
    name: 'inbox, bulk "needs info" without a question',
    who: "owner",
    path: () => inbox("?status=all"),
    ready: async (page) => {
      await expect(rowsOf(page)).toHaveCount(seeded.rows);
      const boxes = page.getByRole("checkbox");
      await boxes.nth(1).check();
      await boxes.nth(2).check();
      const bar = page.getByRole("region", { name: "Selected items" });
      await bar.getByLabel("Status for the selected items").selectOption("needs_info");
      await bar.getByRole("button", { name: "Set status" }).click();
      await expect(bar.getByRole("alert")).toContainText("Write the question");
    },
  },
  {
    // Search highlights in the rows' titles and snippets.
    name: "inbox, searched",
    who: "owner",
    sameControlsAs: "inbox",
    path: () => inbox("?status=all&q=clicks"),
    ready: async (page) => {
      await expect(rowsOf(page)).toHaveCount(seeded.rows);
      await expect(rowsOf(page).first().locator("mark").first()).toBeVisible();
    },
  },
  {
    name: "item, searched",
    who: "owner",
    sameControlsAs: "item",
    path: () => inbox(`?status=all&q=clicks&item=${seeded.richId}`),
    ready: async (page) => {
      await expect(page.getByRole("article").getByRole("list", { name: "Labels" })).toContainText("checkout");
    },
  },
  {
    name: "item not in this inbox",
    who: "owner",
    path: () => inbox("?item=fb_not_in_this_inbox"),
    ready: async (page) => {
      await expect(
        page.getByRole("heading", { name: `This item is not in ${seeded.namespace}` }),
      ).toBeVisible();
    },
  },
  {
    name: "new namespace",
    who: "owner",
    path: () => `/dashboard/${seeded.empty}`,
    ready: async (page) => {
      await expect(page.getByText("No feedback yet")).toBeVisible();
    },
  },
  {
    name: "resolved item",
    who: "owner",
    path: () => inbox(`?status=all&item=${seeded.resolvedId}`),
    ready: async (page) => {
      await expect(page.getByRole("article").getByRole("region", { name: "Resolution" })).toBeVisible();
    },
  },
  {
    name: "insights",
    who: "owner",
    path: () => `${inbox()}/insights`,
    ready: async (page) => {
      await expect(page.getByTestId("insights-open")).toContainText(/\d/);
      await expect(page.getByTestId("chart-items-by-type").locator("svg").first()).toBeVisible();
    },
  },
  {
    name: "webhooks",
    who: "owner",
    path: () => `${inbox()}/webhooks`,
    ready: async (page) => {
      // A table on a wide screen, cards on a phone: the visible one lists the seeded deliveries.
      await expect(
        page.getByText("delivered", { exact: true }).filter({ visible: true }).first(),
      ).toBeVisible();
      await expect(page.getByRole("button", { name: "Re-send" }).filter({ visible: true })).not.toHaveCount(
        0,
      );
    },
  },
  {
    name: "webhooks, a delivery's details",
    who: "owner",
    path: () => `${inbox()}/webhooks`,
    ready: async (page) => {
      await page.getByRole("button", { name: "Details" }).filter({ visible: true }).first().click();
      await expect(page.getByTestId("delivery-sent").filter({ visible: true })).toBeVisible();
    },
  },
  {
    name: "known issues",
    who: "owner",
    path: () => `${inbox()}/known-issues`,
    ready: async (page) => {
      await expect(
        page.getByRole("list", { name: "Known issues" }).getByRole("listitem").first(),
      ).toBeVisible();
    },
  },
  {
    name: "members",
    who: "owner",
    path: () => `${inbox()}/members`,
    ready: async (page) => {
      await expect(page.getByRole("form", { name: "Add a member" })).toBeVisible();
      await expect(page.getByRole("region", { name: "Transfer" })).toBeVisible();
    },
  },
  {
    name: "accept a transfer",
    who: "owner",
    path: () => `${inbox()}/accept`,
    ready: async (page) => {
      await expect(page.getByRole("button", { name: "Accept and become the owner" })).toBeVisible();
    },
  },
  {
    name: "webhooks, Slack format",
    who: "owner",
    path: () => `/dashboard/${seeded.empty}/webhooks`,
    ready: async (page) => {
      await expect(page.getByLabel("Message format")).toHaveValue("slack");
      await expect(page.getByTestId("webhook-url")).toContainText("•");
    },
  },
  {
    name: "invalid namespace name",
    who: "owner",
    path: () => "/dashboard/Bad_Name!",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: /is not a valid namespace name/ })).toBeVisible();
    },
  },
  {
    name: "unknown namespace",
    who: "owner",
    path: () => "/dashboard/nobody-owns-this",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "nobody-owns-this is not registered" })).toBeVisible();
    },
  },
  {
    name: "someone else's namespace",
    who: "submitter",
    path: () => inbox(),
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: `${seeded.namespace} is not yours` })).toBeVisible();
    },
  },
  {
    name: "404, signed in",
    who: "owner",
    path: () => "/no-such-page",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
    },
  },
  {
    name: "submissions",
    who: "submitter",
    path: () => "/submissions",
    ready: async (page) => {
      await expect(page.getByTestId("submission").filter({ hasText: seeded.namespace })).toHaveCount(10);
    },
  },
  {
    name: "submissions, answering the owner",
    who: "submitter",
    path: () => "/submissions",
    ready: async (page) => {
      await page
        .getByRole("button", { name: /^Answer the owner/ })
        .first()
        .click();
      await expect(page.getByRole("form", { name: "Answer the owner" })).toBeVisible();
    },
  },
];

/** The wallet each kind of visitor holds, and its signed-in browser state once signed in. */
const KEYS: Record<Who, Hex | null> = {
  visitor: null,
  owner: OWNER.privateKey,
  submitter: SUBMITTER.privateKey,
};
const sessions: Partial<Record<Who, Awaited<ReturnType<BrowserContext["storageState"]>>>> = {};

async function signIn(browser: Browser, who: "owner" | "submitter") {
  const context = await browser.newContext();
  const page = await context.newPage();
  await injectWallet(page, KEYS[who]!);
  await page.goto(`${APP}/submissions`);
  await page.getByRole("main").getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Browser wallet" }).click();
  await expect(page.getByRole("heading", { name: "Your submissions", exact: true })).toBeVisible();
  sessions[who] = await context.storageState();
  await context.close();
}

/** ~30 reports from three wallets; some resolved, triaged, labelled and merged; a webhook with a log. */
async function seed() {
  const { namespace, empty } = seeded;
  await Promise.all([
    payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace }),
    payAndPost(OWNER.privateKey, "/api/namespace/register", { namespace: empty }),
  ]);
  const owner = createSignInFetch(OWNER.privateKey, fetch);
  const post = async (path: string, body: unknown) => {
    const res = await owner.fetch(`${APP}/api/namespace/${path}`, {
      method: path === "webhook" ? "PATCH" : "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.ok, `${path}: ${res.status} ${await res.clone().text()}`).toBe(true);
    return res.json();
  };

  // A refused delivery first, then a receiver that answers: the log shows both.
  await post("webhook", { namespace, url: await closedPortUrl() });
  await post("webhook/test", { namespace });
  const receiver = await startReceiver();
  await post("webhook", { namespace, url: receiver.url });

  const TYPES = ["bug", "feature", "feedback"] as const;
  const SEVERITIES = ["low", "medium", "high", "critical"] as const;
  const perWallet = await Promise.all(
    REPORTERS.map(async (reporter, w) => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const n = w * 10 + i;
        ids.push(
          await submitAsAgent(reporter.privateKey, namespace, {
            type: TYPES[n % 3],
            title: `Report ${n}: the checkout page ${["freezes", "loses the cart", "shows no total"][n % 3]} on step ${i}`,
            description: `After a few clicks the page stops reacting and nothing is sent (case ${n}).`,
            severity: SEVERITIES[n % 4],
            ...(i === 0
              ? {
                  steps: ["Open /checkout", "Click Pay"],
                  expected: "The payment sheet opens",
                  actual: "Nothing happens",
                  metadata: { page: "https://shop.example.com/checkout", browser: "Safari 18", retries: 3 },
                }
              : {}),
          }),
        );
      }
      return ids;
    }),
  );
  const [a, b, c] = perWallet as [string[], string[], string[]];
  seeded.richId = a[0]!;
  seeded.resolvedId = b[0]!;

  await post("feedback/merge", { namespace, into: a[0], feedbackIds: [b[1], c[1]] });
  await post("feedback/merge", { namespace, into: a[2], feedbackIds: [b[2]] });
  seeded.rows = 30 - 3;
  await post("feedback/labels", { namespace, feedbackIds: [a[0], a[3], c[4]], add: ["checkout", "safari"] });
  await post("feedback/status", {
    namespace,
    feedbackIds: [a[4], b[4]],
    status: "needs_info",
    message: "Which browser?",
  });
  await post("feedback/status", { namespace, feedbackIds: [a[5]], status: "in_progress" });
  await post("feedback/status", { namespace, feedbackIds: [b[5]], status: "acknowledged" });
  await post("feedback/status", {
    namespace,
    feedbackIds: [c[5]],
    status: "wont_fix",
    message: "Works as designed.",
  });
  await post("feedback/status", { namespace, feedbackIds: [c[6]], status: "spam" });
  for (const id of [b[0], b[7], c[0], c[8]])
    await post("resolve", { feedbackId: id, message: "Fixed in 2.4.1, thank you!" });
  await post("webhook/test", { namespace });
  await post("webhook", { namespace: empty, url: await closedPortUrl(), format: "slack" });
  return receiver;
}

let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

// The views are checked in parallel, on every worker the run has (the slowest file of the browser suite: a
// keyboard pass is a Tab press per control), and a failed test restarts its worker: each runs beforeAll.
// The run seeds once: the first worker to take the lock seeds, and every other worker, or a new one, waits
// for the seed and reads the namespace and the sessions back (the runner's pid names the run).
const SEEDED_FILE = path.join(tmpdir(), `a11y-seeded-${process.ppid}.json`);
const SEEDING_LOCK = path.join(tmpdir(), `a11y-seeding-${process.ppid}.lock`);
test.describe.configure({ mode: "parallel" });

/** Removes what runs that have ended left behind. */
function removeStaleSeeds() {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^a11y-seed(?:ed|ing)-(\d+)\.(?:json|lock)$/.exec(name)?.[1]);
    if (!pid || pid === process.ppid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(path.join(tmpdir(), name), { force: true });
    }
  }
}

/** Whether this worker took the seeding lock: false when another worker of the run took it first. */
function takeSeedingLock(): boolean {
  try {
    closeSync(openSync(SEEDING_LOCK, "wx"));
    return true;
  } catch {
    return false;
  }
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  removeStaleSeeds();
  if (!existsSync(SEEDED_FILE) && takeSeedingLock()) {
    receiver = await seed();
    await signIn(browser, "owner");
    await signIn(browser, "submitter");
    // Whole or not at all, for a worker waiting on it: written beside it, then renamed into place.
    writeFileSync(`${SEEDED_FILE}.tmp`, JSON.stringify({ seeded, sessions }));
    renameSync(`${SEEDED_FILE}.tmp`, SEEDED_FILE);
    return;
  }
  // Another worker seeds: wait for what it writes (a seed that failed fails its own test, and these).
  await expect
    .poll(() => existsSync(SEEDED_FILE), {
      timeout: 280_000,
      intervals: [500],
      message: "the seed, from another worker",
    })
    .toBe(true);
  const saved = JSON.parse(readFileSync(SEEDED_FILE, "utf8"));
  Object.assign(seeded, saved.seeded);
  Object.assign(sessions, saved.sessions);
});

test.afterAll(async () => {
  await receiver?.close();
});

async function open(browser: Browser, who: Who, size: keyof typeof SIZES) {
  const context = await browser.newContext({ viewport: SIZES[size], storageState: sessions[who] });
  const page = await context.newPage();
  // A visitor has a browser wallet too: the connect dialog then offers it, as it would to most people.
  await injectWallet(page, KEYS[who] ?? OWNER.privateKey);
  return page;
}

// axe reads every view at both sizes; the keyboard pass (a Tab press per control, the slowest part) runs at the
// desktop size, where a keyboard is at hand. Both dialogs' focus traps are checked at both sizes below.
const KEYBOARD_SIZE: keyof typeof SIZES = "desktop";

for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
  for (const view of VIEWS) {
    const tabs = !view.sameControlsAs && size === KEYBOARD_SIZE;
    const keyboard = tabs ? " and every control takes focus" : "";
    test(`${view.name} (${view.who}, ${size}) has no WCAG 2.1 AA violation${keyboard}`, async ({
      browser,
    }) => {
      // A page of 30 rows or 40 deliveries is a hundred Tab presses on two busy cores.
      test.setTimeout(180_000);
      const page = await open(browser, view.who, size);
      await page.goto(`${APP}${view.path()}`);
      await view.ready(page);
      expect(await axeViolations(page)).toEqual([]);
      if (tabs) await expectKeyboardReachable(page);
      await page.context().close();
    });
  }
}

/**
 * Opens a dialog, again if it did not open: on a busy machine a server-rendered button can be pressed before
 * React has hydrated it, and the press does nothing. It never presses once the dialog shows.
 */
async function openUntilShown(dialog: ReturnType<Page["getByRole"]>, press: () => Promise<void>) {
  await expect(async () => {
    if (!(await dialog.isVisible())) await press();
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Opens a dialog from its trigger with the keyboard, and closes it with Escape and with its Close button. */
async function expectDialogKeepsFocus(page: Page, trigger: ReturnType<Page["getByRole"]>, name: string) {
  const dialog = page.getByRole("dialog", { name });
  for (const close of ["Escape", "Close button"] as const) {
    await openUntilShown(dialog, async () => {
      await trigger.focus();
      await page.keyboard.press("Enter");
    });
    // Focus moves into the dialog, Tab cycles inside it, and every control in it is reached.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await expectKeyboardReachable(page);
    if (close === "Escape") await page.keyboard.press("Escape");
    else {
      await dialog.getByRole("button", { name: "Close" }).focus();
      await page.keyboard.press("Enter");
    }
    await expect(dialog).toBeHidden();
    await expect(trigger, `focus back on the trigger after closing with ${close}`).toBeFocused();
  }
}

for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
  test(`the connect dialog traps focus and returns it to its button (${size})`, async ({ browser }) => {
    const page = await open(browser, "visitor", size);
    await page.goto(`${APP}/dashboard`);
    const trigger = page.getByRole("main").getByRole("button", { name: "Connect wallet" });
    await expectDialogKeepsFocus(page, trigger, "Connect a wallet and sign in");
    await page.context().close();
  });

  test(`the resolve dialog traps focus and returns it to its button (${size})`, async ({ browser }) => {
    const page = await open(browser, "owner", size);
    await page.goto(`${APP}${inbox(`?status=all&item=${seeded.richId}`)}`);
    const trigger = page.getByRole("article").getByRole("button", { name: "Resolve", exact: true });
    await expectDialogKeepsFocus(page, trigger, "Resolve this item");
    await page.context().close();
  });
}
