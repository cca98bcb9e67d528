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
): FeedbackRecord {
  const shared = { ...presentFields(row), context: row.context };
  if (group === null) return { ...shared, history: historyForSubmitter(history) };
  return { ...shared, ...presentGrouping(row), history, group };
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

/** An item's history as its submitter reads it: the owner's own entries left out, and no other report named. */
function historyForSubmitter(history: History): History {
  return history
    .filter((entry) => !OWNER_ONLY_KINDS.has(entry.kind))
    .map((entry) => {
      if (!entry.details) return entry;
      const kept = Object.entries(entry.details).filter(([key]) => SUBMITTER_DETAILS.has(key));
      return { ...entry, details: kept.length ? Object.fromEntries(kept) : null };
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

/** An item in the submitter's status: its own fields, its history, and its resolution once resolved. */
export function presentStatusItem(row: Row, history: History): StatusItem {
  return {
    ...presentFields(row),
    title: shortTitle(row.title),
    history: historyForSubmitter(history),
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
