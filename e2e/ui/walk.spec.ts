import { type BrowserContext, expect as baseExpect, test } from "@playwright/test";
import { shot } from "./helpers";
import {
  openAs,
  type Role,
  SIZES,
  type SizeName,
  scrollsSideways,
  seedWorld,
  signInState,
  WALK_PAGES,
  WALLET_OF,
  type World,
  watchConsole,
} from "./walk-world";
import { devnet } from "./wallet";

// Two busy cores run the app, the chain and the browser: give each expectation room.
const expect = baseExpect.configure({ timeout: 20_000 });

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
let world: World;
const states: Partial<Record<Role, StorageState>> = {};

// One world for the file: thirty reports from three wallets, and the owner and the submitter signed in once.
test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  world = await seedWorld("walk");
  states.owner = await signInState(browser, WALLET_OF.owner.privateKey);
  states.submitter = await signInState(browser, WALLET_OF.submitter.privateKey);
});

for (const size of Object.keys(SIZES) as SizeName[]) {
  for (const walked of WALK_PAGES) {
    test(`${walked.name} at ${size}: fits the width, and the console stays clean`, async ({
      browser,
    }, testInfo) => {
      const { context, page } = await openAs(browser, walked.role, size, states);
      try {
        const errors = watchConsole(page);
        await page.goto(`${devnet.appUrl}${walked.path(world)}`);
        await walked.ready(page, world);
        // Whatever the page still asks for once it shows (counts, the session) lands before the checks.
        await page.waitForLoadState("networkidle");
        await shot(page, testInfo, `walk-${size}-${walked.name.replaceAll(" ", "-")}`);
        const { scrollWidth, innerWidth } = await scrollsSideways(page);
        expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
        // A page that names something not the reader's asks once and is refused: the browser reports that.
        const refused = `Failed to load resource: the server responded with a status of ${walked.refusedRead}`;
        expect(errors.filter((e) => !(walked.refusedRead && e.includes(refused)))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
}
