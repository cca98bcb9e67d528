import "server-only";
import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import type { StatusQuery } from "@/lib/schemas/list";
import { historiesOf } from "./history";
import { pageOf } from "./page";
import { presentStatusItem } from "./present";

/** The submitter's view: what this wallet paid to submit, with resolutions, newest first. */
export async function listSubmissions(who: Who, query: StatusQuery, db?: DbOrTx) {
  db ??= await getDb();
  const { address: wallet, contractOn } = whoOf(who);
  // A contract wallet's reports are its own on the chain it paid on only (see isHolder).
  const where = [eq(feedback.submitterWallet, wallet)];
  if (contractOn !== null) {
    where.push(or(isNull(feedback.submitterContractOn), eq(feedback.submitterContractOn, contractOn))!);
  }
  if (query.namespace) where.push(eq(feedback.namespace, query.namespace));
  const scope = `status\n${wallet.toLowerCase()}\n${query.namespace ?? ""}`;
  const page = await pageOf(db, { where, limit: query.limit, cursor: query.cursor, scope });
  const histories = await historiesOf(
    db,
    page.rows.map((r) => r.id),
  );
  // The callback of each of the wallet's own reports, read for this view alone (page.ts keeps callbacks out of
  // every shared one): the URL only, never the secret.
  const callbacks = new Map(
    page.rows.length === 0
      ? []
      : (
          await db
            .select({ id: feedback.id, url: feedback.callbackUrl })
            .from(feedback)
            .where(
              and(
                eq(feedback.submitterWallet, wallet),
                inArray(
                  feedback.id,
                  page.rows.map((r) => r.id),
                ),
              ),
            )
        ).map((c) => [c.id, c.url]),
  );
  // Each namespace's owner stands for its whole team in what the reporter reads (present.ts).
  const names = [...new Set(page.rows.map((r) => r.namespace))];
  const owners = new Map(
    names.length === 0
      ? []
      : (
          await db
            .select({ name: namespaces.name, owner: namespaces.ownerWallet })
            .from(namespaces)
            .where(inArray(namespaces.name, names))
        ).map((n) => [n.name, n.owner]),
  );
  return {
    submitter: wallet,
    count: page.rows.length,
    feedback: page.rows.map((row) =>
      presentStatusItem(
        row,
        histories.get(row.id) ?? [],
        owners.get(row.namespace) ?? null,
        callbacks.get(row.id) ?? null,
      ),
    ),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
