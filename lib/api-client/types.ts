// Response shapes, taken from the server code that produces them (type-only: nothing server-side ships).
import type { SessionView } from "@/lib/auth/browser-session";
import type { SignInChallenge } from "@/lib/auth/siwe-sign-in";
import type { countFeedback } from "@/lib/domain/feedback/count-feedback";
import type { presentListItem, presentRecord, presentStatusItem } from "@/lib/domain/feedback/present";
import type { listOwnedNamespaces } from "@/lib/domain/namespace/list-owned-namespaces";
import type { FeedbackType, Severity } from "@/lib/schemas/feedback";

export type { FeedbackType, SessionView, Severity, SignInChallenge };

export type FeedbackRecord = ReturnType<typeof presentRecord>;
export type InboxItem = ReturnType<typeof presentListItem>;
export type Submission = ReturnType<typeof presentStatusItem>;
export type OwnedNamespaces = Awaited<ReturnType<typeof listOwnedNamespaces>>;
export type OwnedNamespace = OwnedNamespaces["namespaces"][number];
export type FeedbackCounts = Awaited<ReturnType<typeof countFeedback>>;

export type Page<T> = { count: number; feedback: T[]; nextCursor?: string };
export type InboxPage = Page<InboxItem> & { namespace: string };
export type SubmissionsPage = Page<Submission> & { submitter: string };

/** Inbox filters as they appear in the URL; absent means "any". */
export type InboxFilters = {
  type?: FeedbackType;
  severity?: Severity;
  /** "open" (the default view), "resolved" or "all". */
  status: "open" | "resolved" | "all";
  q?: string;
};

export type RegisterResult = {
  namespace: string;
  ownerWallet: string;
  existingFeedbackLinked: number;
  createdAt: string;
};

export type ResolveResult = {
  id: string;
  namespace: string;
  resolved: boolean;
  resolvedAt: string;
  resolvedBy: string;
  message?: string;
  reward?: { amount: string; recipient: string; txHash: string };
};

/** A paid call's answer and the settlement transaction the service reported. */
export type Paid<T> = { result: T; txHash: string | null };
