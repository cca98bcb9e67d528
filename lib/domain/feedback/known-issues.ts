import "server-only";
import { and, desc, eq, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { type Who, whoOf } from "@/lib/auth/identity";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import { requireAccess } from "@/lib/domain/namespace/require-access";
import { decodeOffsetCursor, encodeOffsetCursor } from "@/lib/domain/shared/cursor";
import { AppError, validationError } from "@/lib/http/errors";
import type { KnownIssuesQuery, UpdateKnownIssuesInput } from "@/lib/schemas/known-issues";
import { SEEN_BY_OWNER } from "./known-listing";
import { holding } from "./list-feedback";
import { lockItems } from "./lock-items";

// A namespace's known issues: the heads of its groups of reports (each issue once, with the reports it
// gathered), spam and the items the owner hid left out, published by the owner for anyone to read before
// paying to report. Only what the owner has seen is listed: publishing lists the inbox as it stands, and a
// report filed afterwards waits until the owner triages, merges into or lists it (`knownListed`), since its
// title is a stranger's words. Only the title, type, status, report count, resolution time and the owner's
// public note ever leave, so a search matches titles only (never a description it could probe).

const notFound = (name: string) =>
  new AppError("known-issues-not-found", `No published known issues for "${name}".`, {
    errors: [{ field: "namespace", message: "has no published known issues" }],
  });

/**
 * A head of the namespace the list may show: not spam; for anyone but the owner's preview, also not hidden
 * and seen by the owner.
 */
function listable(name: string, preview: boolean): SQL[] {
  return [
    eq(feedback.namespace, name),
    isNull(feedback.groupId),
    ne(feedback.status, "spam"),
    ...(preview ? [] : [eq(feedback.knownHidden, false), eq(feedback.knownListed, true)]),
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
    await requireAccess(who, query.namespace, "read", db);
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
      note: feedback.publicNote,
      hidden: feedback.knownHidden,
      listed: feedback.knownListed,
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
    issues: page.map(({ hidden, listed, resolvedAt, type, status, note, ...issue }) => ({
      ...issue,
      type: type as "bug" | "feature" | "feedback",
      status,
      resolvedAt: resolvedAt?.toISOString() ?? null,
      note,
      // Unpublished, publishing lists everything not hidden: nothing waits for review until then.
      ...(isOwner ? { hidden, awaitingReview: Boolean(ns?.published) && !hidden && !listed } : {}),
    })),
    ...(rows.length > query.limit ? { nextCursor: encodeOffsetCursor(offset + query.limit, scope) } : {}),
    ...(isOwner ? { published: ns?.published ?? false } : {}),
  };
}

/**
 * PATCH /known-issues: the owner publishes or withdraws the list, and hides or lists items, all or none.
 * Publishing lists what the owner sees then (every report already filed); `unhide` lists reports filed since.
 */
export async function updateKnownIssues(who: Who, input: UpdateKnownIssuesInput, db?: DbOrTx) {
  whoOf(who);
  db ??= await getDb();
  // Hiding and listing items is triage; publishing or withdrawing the whole list is an admin's.
  if ((input.hide?.length ?? 0) + (input.unhide?.length ?? 0) > 0) {
    await requireAccess(who, input.namespace, "triage", db);
  }
  if (input.published !== undefined) await requireAccess(who, input.namespace, "publish", db);
  return db.transaction(async (tx) => {
    const hide = input.hide ?? [];
    const unhide = input.unhide ?? [];
    await lockItems(tx, input.namespace, hide, (i) => `hide.${i}`);
    await lockItems(tx, input.namespace, unhide, (i) => `unhide.${i}`);
    if (hide.length > 0) {
      await tx.update(feedback).set({ knownHidden: true }).where(inArray(feedback.id, hide));
    }
    if (unhide.length > 0) {
      await tx
        .update(feedback)
        .set({ knownHidden: false, ...SEEN_BY_OWNER })
        .where(inArray(feedback.id, unhide));
    }
    const [was] = await tx
      .select({ published: namespaces.knownIssuesPublished })
      .from(namespaces)
      .where(eq(namespaces.name, input.namespace))
      .for("update");
    const published = input.published ?? was?.published ?? false;
    if (published !== was?.published) {
      await tx
        .update(namespaces)
        .set({ knownIssuesPublished: published })
        .where(eq(namespaces.name, input.namespace));
    }
    if (published && !was?.published) {
      // Publishing lists the inbox as the owner sees it now; what is filed later waits for the owner.
      await tx
        .update(feedback)
        .set(SEEN_BY_OWNER)
        .where(and(eq(feedback.namespace, input.namespace), eq(feedback.knownListed, false)));
    }
    const hidden = await tx
      .select({ id: feedback.id })
      .from(feedback)
      .where(and(eq(feedback.namespace, input.namespace), eq(feedback.knownHidden, true)))
      .orderBy(desc(feedback.createdAt), desc(feedback.id));
    const [waiting] = published
      ? await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(feedback)
          .where(
            and(
              ...listable(input.namespace, true),
              eq(feedback.knownHidden, false),
              eq(feedback.knownListed, false),
            ),
          )
      : [{ n: 0 }];
    return {
      namespace: input.namespace,
      published,
      hidden: hidden.map((h) => h.id),
      awaitingReview: waiting?.n ?? 0,
    };
  });
}

/**
 * Before a paid submission that says `duplicateOf`: a 400 naming it, before any charge, unless it is an
 * open issue the namespace publishes now (listed and not resolved). The store checks again as it joins
 * (submit-feedback.ts): what the owner changes meanwhile leaves the paid report a report of its own.
 */
export async function assertKnownIssue(namespace: string, id: string | null, db?: DbOrTx): Promise<void> {
  if (id === null) return;
  db ??= await getDb();
  const [found] = await db
    .select({ resolved: feedback.resolved })
    .from(feedback)
    .innerJoin(namespaces, eq(namespaces.name, feedback.namespace))
    .where(and(eq(feedback.id, id), eq(namespaces.knownIssuesPublished, true), ...listable(namespace, false)))
    .limit(1);
  const refuse = (message: string) => validationError([{ field: "duplicateOf", message }]);
  if (!found) throw refuse(`is not a published known issue of "${namespace}"; nothing was charged`);
  if (found.resolved) {
    throw refuse(
      "is resolved; if it still happens to you, file a report of your own without duplicateOf; nothing was charged",
    );
  }
}
