import "server-only";
import { and, desc, eq, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import { requireOwner } from "@/lib/domain/namespace/require-owner";
import { decodeOffsetCursor, encodeOffsetCursor } from "@/lib/domain/shared/cursor";
import { AppError, validationError } from "@/lib/http/errors";
import type { KnownIssuesQuery, UpdateKnownIssuesInput } from "@/lib/schemas/known-issues";
import { holding } from "./list-feedback";
import { lockItems } from "./lock-items";

// A namespace's known issues: the heads of its groups of reports (each issue once, with the reports it
// gathered), spam and the items the owner hid left out, published by the owner for anyone to read before
// paying to report. Only the title, type, status, report count and resolution time ever leave: a title is
// what the owner agreed to publish, so a search matches titles only (never a description it could probe).

const notFound = (name: string) =>
  new AppError("known-issues-not-found", `No published known issues for "${name}".`, {
    errors: [{ field: "namespace", message: "has no published known issues" }],
  });

/** A head of the namespace that may be listed: not spam, and (unless `withHidden`) not hidden. */
function listable(name: string, withHidden: boolean): SQL[] {
  return [
    eq(feedback.namespace, name),
    isNull(feedback.groupId),
    ne(feedback.status, "spam"),
    ...(withHidden ? [] : [eq(feedback.knownHidden, false)]),
  ];
}

function titleMatches(q: string): SQL {
  return or(
    sql`to_tsvector('english', ${feedback.title}) @@ websearch_to_tsquery('english', ${q})`,
    holding(feedback.title, q),
  )!;
}

/**
 * GET /known-issues: the published list, to anyone (`who` null); the same 404 for an unpublished or unknown
 * namespace. With view=owner, `who` signed in must own it, and reads it unpublished too, with the hidden
 * items marked, to decide what to publish.
 */
export async function listKnownIssues(who: Who | null, query: KnownIssuesQuery, db?: DbOrTx) {
  db ??= await getDb();
  const [ns] = await db
    .select({ published: namespaces.knownIssuesPublished })
    .from(namespaces)
    .where(eq(namespaces.name, query.namespace))
    .limit(1);
  if (who !== null) {
    // The owner's view: the list as it stands, published or not.
    await requireOwner(who, query.namespace, db);
  } else if (!ns?.published) throw notFound(query.namespace);
  const isOwner = who !== null;
  const scope = `known\n${query.namespace}\n${isOwner}\n${query.q ?? ""}`;
  const offset = query.cursor ? decodeOffsetCursor(query.cursor, scope) : 0;
  const rows = await db
    .select({
      id: feedback.id,
      title: feedback.title,
      type: feedback.type,
      status: feedback.status,
      reports: feedback.reportCount,
      resolvedAt: feedback.resolvedAt,
      hidden: feedback.knownHidden,
    })
    .from(feedback)
    .where(and(...listable(query.namespace, isOwner), ...(query.q ? [titleMatches(query.q)] : [])))
    // The most reported first, then the newest (feedback_ns_heads_votes_idx).
    .orderBy(desc(feedback.reportCount), desc(feedback.createdAt), desc(feedback.id))
    .limit(query.limit + 1)
    .offset(offset);
  const page = rows.slice(0, query.limit);
  return {
    namespace: query.namespace,
    count: page.length,
    issues: page.map(({ hidden, resolvedAt, type, status, ...issue }) => ({
      ...issue,
      type: type as "bug" | "feature" | "feedback",
      status,
      resolvedAt: resolvedAt?.toISOString() ?? null,
      ...(isOwner ? { hidden } : {}),
    })),
    ...(rows.length > query.limit ? { nextCursor: encodeOffsetCursor(offset + query.limit, scope) } : {}),
    ...(isOwner ? { published: ns?.published ?? false } : {}),
  };
}

/** PATCH /known-issues: the owner publishes or withdraws the list, and hides or shows items, all or none. */
export async function updateKnownIssues(who: Who, input: UpdateKnownIssuesInput, db?: DbOrTx) {
  whoOf(who);
  db ??= await getDb();
  await requireOwner(who, input.namespace, db);
  return db.transaction(async (tx) => {
    const hide = input.hide ?? [];
    const unhide = input.unhide ?? [];
    await lockItems(tx, input.namespace, hide, (i) => `hide.${i}`);
    await lockItems(tx, input.namespace, unhide, (i) => `unhide.${i}`);
    if (hide.length > 0) {
      await tx.update(feedback).set({ knownHidden: true }).where(inArray(feedback.id, hide));
    }
    if (unhide.length > 0) {
      await tx.update(feedback).set({ knownHidden: false }).where(inArray(feedback.id, unhide));
    }
    const [ns] =
      input.published === undefined
        ? await tx
            .select({ published: namespaces.knownIssuesPublished })
            .from(namespaces)
            .where(eq(namespaces.name, input.namespace))
        : await tx
            .update(namespaces)
            .set({ knownIssuesPublished: input.published })
            .where(eq(namespaces.name, input.namespace))
            .returning({ published: namespaces.knownIssuesPublished });
    const hidden = await tx
      .select({ id: feedback.id })
      .from(feedback)
      .where(and(eq(feedback.namespace, input.namespace), eq(feedback.knownHidden, true)))
      .orderBy(desc(feedback.createdAt), desc(feedback.id));
    return { namespace: input.namespace, published: ns?.published ?? false, hidden: hidden.map((h) => h.id) };
  });
}

/**
 * Before a paid submission that says `duplicateOf`: a 400 naming it, before any charge, unless it is an
 * issue the namespace publishes now (listed: a head, not spam, not hidden, in a published namespace).
 */
export async function assertKnownIssue(namespace: string, id: string | null, db?: DbOrTx): Promise<void> {
  if (id === null) return;
  db ??= await getDb();
  const [found] = await db
    .select({ id: feedback.id })
    .from(feedback)
    .innerJoin(namespaces, eq(namespaces.name, feedback.namespace))
    .where(and(eq(feedback.id, id), eq(namespaces.knownIssuesPublished, true), ...listable(namespace, false)))
    .limit(1);
  if (!found) {
    throw validationError([
      {
        field: "duplicateOf",
        message: `is not a published known issue of "${namespace}"; nothing was charged`,
      },
    ]);
  }
}
