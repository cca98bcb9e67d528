import type { z } from "zod";
import type { feedbackRecordSchema, listResponseSchema, statusResponseSchema } from "@/lib/schemas/responses";
import type { ItemRow, RecordRow } from "./page";

// Each shape is its response schema's: what the API documents is what the code can return.
type FeedbackRecord = z.output<typeof feedbackRecordSchema>;
type ListItem = z.output<typeof listResponseSchema>["feedback"][number];
type StatusItem = z.output<typeof statusResponseSchema>["feedback"][number];
type History = FeedbackRecord["history"];

type Row = ItemRow;

const TITLE_LIMIT = 80;

/** Titles longer than 80 characters are shown cut to 77 plus "..." in list and status views. */
export function shortTitle(title: string): string {
  const cp = [...title];
  return cp.length > TITLE_LIMIT ? `${cp.slice(0, TITLE_LIMIT - 3).join("")}...` : title;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Grouping = Pick<FeedbackRecord, "groupId" | "groupKind" | "reportCount" | "labels">;
type Shared = Omit<FeedbackRecord, "context" | "history" | "group" | keyof Grouping>;

/**
 * The full view. The owner sees the item's group and its labels; its submitter sees its own report only,
 * with no trace of other reports (their ids, titles or wallets) or of the owner's labels.
 */
export function presentRecord(
  row: RecordRow,
  history: History,
  group: NonNullable<FeedbackRecord["group"]> | null,
  owner: string | null,
): FeedbackRecord {
  const shared = { ...presentFields(row), context: row.context };
  if (group === null) {
    return { ...shared, ...teamHidden(row, owner), history: historyForSubmitter(history, row, owner) };
  }
  return { ...shared, ...presentGrouping(row), history, group };
}

/**
 * Who acted, as the reporter reads it: itself, the service, or for anyone of the namespace's team (its owner
 * or a member) the namespace's owner, so no member's wallet reaches a reporter.
 */
function actorForReporter(actor: string, row: Row, owner: string | null): string {
  if (actor === "service" || owner === null) return actor;
  return row.submitterWallet?.toLowerCase() === actor.toLowerCase() ? actor : owner;
}

/** The resolver, as the reporter reads it (see actorForReporter). */
function teamHidden(row: Row, owner: string | null): Pick<Shared, "resolvedBy"> {
  return { resolvedBy: row.resolvedBy === null ? null : actorForReporter(row.resolvedBy, row, owner) };
}

/** Where the report stands among its duplicates, and the owner's labels: for the owner only. */
export function presentGrouping(row: Row): Required<Grouping> {
  return { groupId: row.groupId, groupKind: row.groupKind, reportCount: row.reportCount, labels: row.labels };
}

// What a submitter may read of an entry's details: its own reward and answers.
const SUBMITTER_DETAILS = new Set([
  "rewardAmount",
  "steps",
  "expected",
  "actual",
  "context",
  "outcome",
  "knownIssue",
]);

// Entries that are the owner's own: the service's suggestions to it, and its labels.
const OWNER_ONLY_KINDS = new Set<History[number]["kind"]>(["suggested", "labels"]);

/**
 * An item's history as its submitter reads it: the owner's own entries left out, no other report named, and
 * the team's changes told as the owner's.
 */
function historyForSubmitter(history: History, row: Row, owner: string | null): History {
  return history
    .filter((entry) => !OWNER_ONLY_KINDS.has(entry.kind))
    .map((entry) => {
      const actor = actorForReporter(entry.actor, row, owner);
      if (!entry.details) return { ...entry, actor };
      const kept = Object.entries(entry.details).filter(([key]) => SUBMITTER_DETAILS.has(key));
      return { ...entry, actor, details: kept.length ? Object.fromEntries(kept) : null };
    });
}

/** The fields every view of an item shares. */
export function presentFields(row: Row): Shared {
  return {
    id: row.id,
    namespace: row.namespace,
    // jsonb stores keys sorted; answer in the contract's order.
    targets: row.targets.map(({ kind, value, host }) => ({ kind, value, host })),
    // The columns are text; only the schema's values are ever written (inputs are parsed first).
    type: row.type as FeedbackRecord["type"],
    title: row.title,
    description: row.description,
    severity: row.severity as FeedbackRecord["severity"],
    verified: row.verified,
    submitterDid: row.submitterDid,
    submitterWallet: row.submitterWallet,
    resolved: row.resolved,
    resolveMessage: row.resolveMessage,
    rewardAmount: row.rewardAmount,
    createdAt: row.createdAt.toISOString(),
    steps: row.steps,
    expected: row.expected,
    actual: row.actual,
    metadata: row.metadata,
    resolvedAt: iso(row.resolvedAt),
    resolvedBy: row.resolvedBy,
    rewardTxHash: row.rewardTxHash,
    status: row.status,
    confirmation: presentConfirmation(row),
  };
}

/**
 * The submitter's last answer to a resolution, and whether it still stands: a "fixed" while the item stays
 * resolved by the resolution it answered, a "not_fixed" until the item is resolved again.
 */
function presentConfirmation(row: Row): Shared["confirmation"] {
  if (!row.confirmation || !row.confirmedAt || !row.confirmedResolutionAt) return null;
  const current =
    row.confirmation === "fixed"
      ? row.resolvedAt?.getTime() === row.confirmedResolutionAt.getTime()
      : row.resolvedAt === null;
  return {
    outcome: row.confirmation,
    note: row.confirmationNote,
    at: row.confirmedAt.toISOString(),
    current,
  };
}

/** An item in the owner's list: the record with a shortened title, and its group. */
export function presentListItem(row: Row): ListItem {
  return { ...presentFields(row), ...presentGrouping(row), title: shortTitle(row.title) };
}

/**
 * An item in the submitter's status: its own fields, its history, its callback URL, and its resolution once
 * resolved; `owner` is its namespace's owner, named for whoever of the team acted.
 */
export function presentStatusItem(
  row: Row,
  history: History,
  owner: string | null,
  callbackUrl: string | null,
): StatusItem {
  return {
    ...presentFields(row),
    ...teamHidden(row, owner),
    title: shortTitle(row.title),
    history: historyForSubmitter(history, row, owner),
    // The reporter's own callback (this is its own list); never its secret, which was shown once.
    callbackUrl,
    ...(row.resolved
      ? {
          resolution: {
            message: row.resolveMessage,
            resolvedAt: iso(row.resolvedAt),
            rewardAmount: row.rewardAmount,
            rewardTxHash: row.rewardTxHash,
          },
        }
      : {}),
  };
}
