import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { feedback, payouts } from "@/lib/db/schema";
import { insertItem, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";

// Found by name, not number: migrations are renumbered when branches merge.
const MIGRATIONS = path.join(process.cwd(), "drizzle");
const file = readdirSync(MIGRATIONS).find((f) => f.endsWith("_release_paid_reward_holds.sql"));

/** Runs the migration's statements again, on the rows a test wrote. */
async function migrate(db: DbOrTx) {
  const text = readFileSync(path.join(MIGRATIONS, file!), "utf8");
  for (const statement of text.split("--> statement-breakpoint")) await db.execute(sql.raw(statement));
}

/** An item held by a rewarded resolve whose payout is in `status` (none: the payment is still in flight). */
async function heldItem(db: DbOrTx, status: "pending" | "paid" | "refunding" | null) {
  const paymentId = ref("pay");
  const id = await insertItem(db, { namespace: ref("ns"), resolvingPaymentId: paymentId });
  if (status) {
    await db.insert(payouts).values({
      id: ref("po"),
      feedbackId: id,
      paymentId,
      recipient: "0x00000000000000000000000000000000000000a2",
      amount: "100000",
      memo: "0x00",
      status,
    });
  }
  return id;
}

const holder = async (db: DbOrTx, id: string) =>
  (await db.select().from(feedback).where(eq(feedback.id, id)))[0]!.resolvingPaymentId;

describe("migration release_paid_reward_holds", () => {
  rolledBack("releases the items a paid reward still held, and no other", async (db) => {
    expect(file).toBeDefined();
    const stuck = await heldItem(db, "paid");
    const others = [await heldItem(db, "pending"), await heldItem(db, "refunding"), await heldItem(db, null)];
    const held = await Promise.all(others.map((id) => holder(db, id)));

    await migrate(db);
    expect(await holder(db, stuck)).toBeNull();
    // A payout still being paid or refunded, or a payment still in flight, keeps its item.
    expect(await Promise.all(others.map((id) => holder(db, id)))).toEqual(held);
  });
});
