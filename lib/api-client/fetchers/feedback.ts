import { api } from "../http";
import { inboxListParams } from "../inbox-filters";
import type { Moved } from "../merge-undo";
import type {
  ChangeStatusResult,
  FeedbackCounts,
  FeedbackRecord,
  FeedbackStatus,
  InboxFilters,
  InboxPage,
  Paid,
  ResolveResult,
} from "../types";
import { postPaid } from "./paid";

/** One page of a namespace's inbox, newest first. */
export function fetchInboxPage(
  namespace: string,
  filters: InboxFilters,
  cursor?: string,
): Promise<InboxPage> {
  return api<InboxPage>(`/api/namespace/list?${inboxListParams(namespace, filters, cursor)}`);
}

/** Counts per type, open and resolved. */
export function fetchCounts(namespace: string): Promise<FeedbackCounts> {
  return api<FeedbackCounts>(`/api/dashboard/counts?${new URLSearchParams({ namespace })}`);
}

/** The full record of one item. */
export function fetchFeedback(id: string): Promise<FeedbackRecord> {
  return api<FeedbackRecord>(`/api/namespace/feedback?${new URLSearchParams({ id })}`);
}

/** Resolves an item; with a reward, `pay` answers the 402 with the tip from the connected wallet. */
export function postResolve(
  pay: typeof fetch,
  input: {
    feedbackId: string;
    message?: string;
    publicNote?: string;
    rewardAmount?: string;
    alsoResolve?: string[];
  },
): Promise<Paid<ResolveResult>> {
  return postPaid<ResolveResult>(pay, "/api/namespace/resolve", input);
}

/** Sets one triage status, and a message for the submitters, on items of a namespace. */
export function postStatus(input: {
  namespace: string;
  feedbackIds: string[];
  status: FeedbackStatus;
  message?: string;
}): Promise<ChangeStatusResult> {
  return api<ChangeStatusResult>("/api/namespace/feedback/status", {
    method: "POST",
    body: JSON.stringify(input),
  });
}

/** Files reports under the group of `into` (duplicates). */
type MergeResult = { groupId: string; reportCount: number; merged: string[]; moved: Moved[] };

export function postMerge(input: { namespace: string; into: string; feedbackIds: string[] }) {
  return api<MergeResult>("/api/namespace/feedback/merge", {
    method: "POST",
    body: JSON.stringify(input),
  });
}

/** Takes reports out of their groups. */
export function postUnmerge(input: { namespace: string; feedbackIds: string[] }) {
  return api<{ unmerged: string[] }>("/api/namespace/feedback/unmerge", {
    method: "POST",
    body: JSON.stringify(input),
  });
}

/** Adds and removes labels on items. */
export function postLabels(input: {
  namespace: string;
  feedbackIds: string[];
  add?: string[];
  remove?: string[];
}) {
  return api<{ changed: { id: string; labels: string[] }[] }>("/api/namespace/feedback/labels", {
    method: "POST",
    body: JSON.stringify(input),
  });
}
