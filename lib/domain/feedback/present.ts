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

/** The stored record (contract 2.2) plus its namespace, context, status and history; the full view. */
export function presentRecord(
  row: RecordRow,
  history: History,
  group: FeedbackRecord["group"],
): FeedbackRecord {
  return { ...presentFields(row), context: row.context, history, group };
}

/** The fields every view of an item shares. */
export function presentFields(row: Row): Omit<FeedbackRecord, "context" | "history" | "group"> {
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
    labels: row.labels,
    groupId: row.groupId,
    reportCount: row.reportCount,
  };
}

/** An item in the owner's list: the record with a shortened title. */
export function presentListItem(row: Row): ListItem {
  return { ...presentFields(row), title: shortTitle(row.title) };
}

/** An item in the submitter's status: the list item, its history, and its resolution once resolved. */
export function presentStatusItem(row: Row, history: History): StatusItem {
  return {
    ...presentListItem(row),
    history,
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
