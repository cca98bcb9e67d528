import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import type { feedback } from "@/lib/db/schema";
import { ALIKE_PAIRS } from "@/testing/alike-pairs";
import { insertItem, ref } from "@/testing/db-rows";
import { measureAlike, scored } from "@/testing/measure-alike";
import { rolledBack } from "@/testing/rollback";
import { groupReport } from "./groups";

/** A bug report as the labelled pairs hold one. */
const bug = (title: string, description: string) => ({ type: "bug" as const, title, description });

// The automatic suggestion, measured on labelled pairs through the real grouping statement: it must be
// right when it suggests (precision), and speak often enough to help (recall; the bench reports both).
describe("what the service calls alike", () => {
  rolledBack(
    "suggests at least 95% correctly on the labelled pairs, and finds a third of the duplicates, a fifth of those in other words",
    async (db) => {
      const result = await measureAlike(db, ALIKE_PAIRS);
      expect(result.precision).toBeGreaterThanOrEqual(0.95);
      // 0.358 of all duplicates when last measured, and 0.208 of those in two people's own words.
      expect(result.recall).toBeGreaterThanOrEqual(0.33);
      // Each pair is measured in a namespace of its own: a subset's figures are read from the one run.
      const own = ALIKE_PAIRS.flatMap((p, i) => (p.paraphrased ? [i] : []));
      const paraphrased = scored(
        own.map((i) => ALIKE_PAIRS[i]!),
        own.map((i) => result.joinedEach[i]!),
      );
      expect(paraphrased.precision).toBeGreaterThanOrEqual(0.95);
      expect(paraphrased.recall).toBeGreaterThanOrEqual(0.18);
    },
    180_000,
  );

  rolledBack(
    "meets two reporters' own words for one symptom, and keeps another symptom apart",
    async (db) => {
      const crash = {
        type: "bug" as const,
        title: "App crashes when I start a run",
        description: "Since the update, pressing start on a run closes the app instantly. iPhone 14.",
      };
      const closes = {
        type: "bug" as const,
        title: "Closes unexpectedly as soon as I tap Start workout",
        description:
          "Tapping Start workout makes the app shut down and go back to the home screen. Happens on iOS every time since yesterday's update.",
      };
      const finish = {
        type: "bug" as const,
        title: "App crashes when I finish a run",
        description:
          "Run tracking works fine, but tapping finish to save it crashes the app and the whole run is lost.",
      };
      const size = {
        type: "bug" as const,
        title: "Size dropdown doesn't respond on product page",
        description:
          "On any jacket page, clicking the size selector does nothing. I can't add to cart because a size is required.",
      };
      const nothing = {
        type: "bug" as const,
        title: "Nothing happens when I tap to pick a size",
        description:
          "Tapping 'Select size' on item pages has no effect, no list opens, so the add to basket button stays grey.",
      };
      const result = await measureAlike(db, [
        { a: crash, b: closes, same: true, note: "crash / closes unexpectedly" },
        { a: size, b: nothing, same: true, note: "doesn't respond / nothing happens, basket / cart" },
        { a: crash, b: finish, same: false, note: "a crash at the start, another at the end" },
      ]);
      expect(result.wrong).toEqual([]);
    },
  );

  rolledBack(
    "meets one symptom of one thing in other words, and keeps another symptom of it apart",
    async (db) => {
      const first = bug(
        "Notifications keep coming after I turned them off",
        "I disabled marketing notifications in the app settings, but I still get them on my phone every day.",
      );
      const result = await measureAlike(db, [
        {
          a: first,
          b: bug(
            "Marketing notifications still arrive although turned off",
            "In settings the marketing notifications toggle is off, yet the app keeps sending them to my phone every day.",
          ),
          same: true,
          note: "keeps coming / still arrive: one symptom",
        },
        {
          a: first,
          b: bug(
            "Marketing notifications in the wrong language",
            "The marketing notifications the app sends to my phone every day are in German, though my settings say English.",
          ),
          same: false,
          note: "can't turn off / wrong language: another symptom",
        },
      ]);
      expect(result.wrong).toEqual([]);
    },
  );

  rolledBack(
    "meets a title's thing and symptom in other words, and keeps apart titles written from one template",
    async (db) => {
      const button = bug(
        "Export button does nothing",
        "Clicking Export on the reports page has no effect, no file is downloaded and no message shows.",
      );
      const invoices = bug(
        "Invoice export does nothing",
        "Clicking export on the invoices page has no effect, no file arrives.",
      );
      const result = await measureAlike(db, [
        {
          a: button,
          b: bug(
            "Nothing happens when I press export on reports",
            "Pressing the export button in Reports doesn't respond at all, I waited a minute and tried twice.",
          ),
          same: true,
          note: "does nothing / nothing happens: export, in other words",
        },
        {
          a: invoices,
          b: bug(
            "Receipt export does nothing",
            "Clicking export for receipts has no effect since Monday; I need them for taxes.",
          ),
          same: false,
          note: "one template, another thing exported",
        },
      ]);
      expect(result.wrong).toEqual([]);
    },
  );

  rolledBack("makes one word of the common ways of saying one thing", async (db) => {
    const words = async (text: string) => {
      const rows = (await db.execute(sql`select feedback_alike_words(${text}) as w`)) as unknown as
        | { rows: { w: string[] }[] }
        | { w: string[] }[];
      return (Array.isArray(rows) ? rows : rows.rows)[0]!.w;
    };
    expect(await words("Basket emptied after I logged in")).toEqual(
      await words("cart empties after sign-in"),
    );
    expect(await words("The button does nothing")).toEqual(await words("button: nothing happens"));
    expect(await words("closes unexpectedly")).toEqual(await words("crashes"));
  });

  rolledBack("keeps apart reports that differ in what they name, and joins repeats", async (db) => {
    const report = (title: string, description = "Steps and details are the same in both reports.") => ({
      type: "bug" as const,
      title,
      description,
    });
    const near = [
      ["Login fails on Safari", "Login fails on Chrome"],
      ["Crash when uploading PNG", "Crash when uploading PDF"],
      ["API /v1/users returns 500", "API /v1/orders returns 500"],
      ["reward item 1", "reward item 2"],
    ].map(([a, b]) => ({ a: report(a!), b: report(b!), same: false, note: "near miss" }));
    const repeat = {
      a: report("Checkout button does nothing", "Clicking Pay on /checkout sends no request."),
      b: report("The checkout button does nothing", "Clicking Pay on /checkout sends no request at all."),
      same: true,
      note: "a retry",
    };
    const result = await measureAlike(db, [...near, repeat]);
    expect(result.wrong).toEqual([]);
  });
});

// What a walk through the dashboard found: each report below arrives in a namespace of its own.
describe("a new report compared with the groups of its namespace", () => {
  const alice = "0x00000000000000000000000000000000000000c2";
  const bob = "0x00000000000000000000000000000000000000c3";
  let clock = Date.parse("2026-11-04T00:00:00Z");
  const file = (db: DbOrTx, namespace: string, item: Partial<typeof feedback.$inferInsert>) => {
    clock += 1000;
    return insertItem(db, { namespace, submitterWallet: alice, createdAt: new Date(clock), ...item });
  };

  rolledBack("is suggested into a group whose report has the same title, from another wallet", async (db) => {
    const ns = ref("alike");
    const first = await file(db, ns, {
      title: "Invoice PDF download returns 404",
      description:
        "Clicking Download PDF on any invoice under Billing > Invoices opens a page saying 404 Not Found.",
    });
    const again = await file(db, ns, {
      title: "invoice pdf download returns 404.",
      description: "The Download PDF link on the Invoices page gives a 404 for every invoice I tried.",
      submitterWallet: bob,
      groupedAt: null,
    });
    expect(await groupReport(again, db)).toBe(first);
  });

  rolledBack("is suggested when it repeats a report word for word, however short its title", async (db) => {
    const ns = ref("alike");
    const report = {
      title: "Login problem",
      description: "After entering my password the page reloads and asks me to log in again.",
    };
    const first = await file(db, ns, report);
    const again = await file(db, ns, { ...report, submitterWallet: bob, groupedAt: null });
    expect(await groupReport(again, db)).toBe(first);
  });

  rolledBack(
    "is not suggested when only a template body is shared, the titles naming other things",
    async (db) => {
      const ns = ref("alike");
      const template =
        "Environment: Chrome 131 on macOS 15, app version 4.2.0, signed in as an admin. Steps: open the page, do the action, look at the result. Seen every time since this morning.";
      await file(db, ns, { title: "Invoice totals ignore the discount code", description: template });
      const other = await file(db, ns, {
        title: "Avatar upload spins forever",
        description: template,
        submitterWallet: bob,
        groupedAt: null,
      });
      expect(await groupReport(other, db)).toBeNull();
    },
  );

  rolledBack("is suggested into a group when it repeats one of the group's later reports", async (db) => {
    const crash = {
      title: "First transaction missing from CSV export when a date filter is set",
      description:
        "With a date filter applied on Transactions, Export CSV writes every row except the first one of the filtered list. Without a filter it seems fine. Chrome 126 on macOS.",
    };
    const copy = {
      title: "First transaction missing from the CSV export when a date filter is set",
      description:
        "With a date filter set on Transactions, Export CSV writes every row except the first one of the filtered list. Without a filter it looks fine. Chrome 126, macOS.",
      submitterWallet: bob,
      groupedAt: null,
    };
    const head = {
      title: "CSV export drops the first row",
      description:
        "Exporting the transactions table leaves out the first transaction; the file starts at the second.",
    };
    // Alike the group's third report only: the group's first report alone does not make it a repeat.
    const alone = ref("alike");
    await file(db, alone, head);
    expect(await groupReport(await file(db, alone, copy), db)).toBeNull();

    const ns = ref("alike");
    const first = await file(db, ns, { ...head, reportCount: 3 });
    const merged = { groupId: first, groupKind: "merged" as const };
    await file(db, ns, {
      title: "Exported CSV starts at the second transaction",
      description: "Row 1 of the transactions table never makes it into the exported file.",
      ...merged,
    });
    await file(db, ns, { ...crash, ...merged });
    expect(await groupReport(await file(db, ns, copy), db)).toBe(first);
  });

  rolledBack("is not suggested when a word turns the meaning: the first row is not the last", async (db) => {
    const ns = ref("alike");
    const body = (which: string) =>
      `When I export the customers table to CSV, the ${which} customer in the list is not in the file. All other rows are there.`;
    await file(db, ns, { title: "Export to CSV drops the first row", description: body("first") });
    const last = await file(db, ns, {
      title: "Export to CSV drops the last row",
      description: body("last"),
      submitterWallet: bob,
      groupedAt: null,
    });
    expect(await groupReport(last, db)).toBeNull();
  });
});
