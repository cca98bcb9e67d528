import "server-only";
import { sql } from "drizzle-orm";
import type { Who } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { describeError } from "@/lib/http/log";
import type { ExportQuery } from "@/lib/schemas/list";
import { CSV_HEADER, csvRecordLine } from "./export-format";
import { inboxFilter } from "./list-feedback";
import { pageOf } from "./page";
import { presentFields, presentGrouping } from "./present";

/** Rows read per database round trip while streaming an export. */
const EXPORT_PAGE = 500;

/**
 * An owner's export of a filtered view, every item newest first, as CSV or a JSON array. The owner
 * is checked before anything is sent; then the body is streamed a page at a time as the client reads
 * it (keyset pages, so memory stays flat whatever the size and a slow reader slows the reads).
 */
export async function exportFeedback(who: Who, query: ExportQuery, db?: DbOrTx) {
  const database = db ?? (await getDb());
  await requireAccess(who, query.namespace, "read", database);
  const { where, scope, match } = inboxFilter({
    ...query,
    limit: EXPORT_PAGE,
    sort: "newest",
    grouped: false,
  });
  const encoder = new TextEncoder();
  const json = query.format === "json";
  let cursor: string | undefined;
  let first = true;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      try {
        const page = await pageOf<{ context: string | null }>(database, {
          where,
          scope,
          match,
          limit: EXPORT_PAGE,
          cursor,
          // An export carries every field, the context too.
          extra: { context: sql<string | null>`${feedback.context}` },
        });
        let chunk = first ? (json ? "[" : CSV_HEADER) : "";
        for (const row of page.rows) {
          const record = { ...presentFields(row), ...presentGrouping(row), context: row.context };
          chunk += json ? `${first ? "\n" : ",\n"}${JSON.stringify(record)}` : csvRecordLine(record);
          first = false;
        }
        first = false;
        cursor = page.nextCursor;
        if (!cursor) {
          done = true;
          if (json) chunk += "\n]\n";
        }
        controller.enqueue(encoder.encode(chunk));
        if (done) controller.close();
      } catch (error) {
        console.error(`[export] ${query.namespace}: stopped after a failed read: ${describeError(error)}`);
        controller.error(error);
      }
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return {
    body,
    contentType: json ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
    filename: `${query.namespace}-feedback-${day}.${query.format}`,
  };
}
