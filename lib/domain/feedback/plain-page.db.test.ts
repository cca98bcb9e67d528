import { randomBytes } from "node:crypto";
import { describe, expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { listQuerySchema } from "@/lib/schemas/list";
import { rolledBack } from "@/testing/rollback";
import { inboxFilter } from "./list-feedback";
import { pageOf } from "./page";
import { plainPage } from "./plain-page";

const name = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

/** Items one second apart (two share a second, so ids break the tie), some grouped under the first. */
async function scene(db: DbOrTx, namespace: string) {
  const at = Date.parse("2026-11-01T00:00:00Z");
  const ids: string[] = [];
  for (let i = 0; i < 9; i++) {
    const id = name("fb");
    ids.push(id);
    await db.insert(feedback).values({
      id,
      namespace,
      type: "bug",
      title: `Item ${i}`,
      description: "Details.",
      targets: [],
      paymentId: name("pay"),
      groupId: i % 3 === 2 ? ids[0] : null,
      createdAt: new Date(at + Math.min(i, 7) * 1000),
    });
  }
}

describe("the inbox's usual view, prepared", () => {
  rolledBack("reads the same rows and cursors as the general page, page after page", async (db) => {
    const namespace = name("ns");
    await scene(db, namespace);
    await scene(db, name("other"));
    for (const grouped of ["false", "true"]) {
      for (const limit of ["1", "2", "4", "50"]) {
        let cursor: string | undefined;
        let pages = 0;
        do {
          const query = listQuerySchema.parse({ namespace, grouped, limit, ...(cursor ? { cursor } : {}) });
          const filter = inboxFilter(query);
          const general = await pageOf(db, { ...filter, limit: query.limit, cursor });
          const prepared = await plainPage(db, { ...query, scope: filter.scope });
          expect(prepared).toEqual(general);
          cursor = prepared.nextCursor;
          pages++;
        } while (cursor && pages < 20);
        expect(cursor).toBeUndefined();
      }
    }
  });

  rolledBack("refuses a cursor from another query", async (db) => {
    const namespace = name("ns");
    await scene(db, namespace);
    const first = listQuerySchema.parse({ namespace, limit: "2" });
    const { nextCursor } = await plainPage(db, { ...first, scope: inboxFilter(first).scope });
    const other = listQuerySchema.parse({ namespace, grouped: "true", limit: "2", cursor: nextCursor });
    await expect(plainPage(db, { ...other, scope: inboxFilter(other).scope })).rejects.toThrow(/cursor/);
  });
});
