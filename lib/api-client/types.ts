// Response shapes (type-only: nothing server-side ships).

import type { z } from "zod";
import type { SessionView } from "@/lib/auth/browser-session";
import type { SignInChallenge } from "@/lib/auth/siwe-sign-in";
import type { countFeedback } from "@/lib/domain/feedback/count-feedback";
import type { listOwnedNamespaces } from "@/lib/domain/namespace/list-owned-namespaces";
import type { NamespaceAccess } from "@/lib/domain/namespace/namespace-access";
import type { FeedbackStatus, FeedbackType, Severity } from "@/lib/schemas/feedback";
import type {
  changeStatusResponseSchema,
  feedbackRecordSchema,
  followUpResponseSchema,
  listResponseSchema,
  resolveResponseSchema,
  statusResponseSchema,
} from "@/lib/schemas/responses";

export type { FeedbackStatus, FeedbackType, NamespaceAccess, SessionView, Severity, SignInChallenge };

// The answers' types are the schemas' (the same schemas the OpenAPI document and its tests use).
export type FeedbackRecord = z.output<typeof feedbackRecordSchema>;
export type InboxItem = z.output<typeof listResponseSchema>["feedback"][number];
export type Submission = z.output<typeof statusResponseSchema>["feedback"][number];
export type OwnedNamespaces = Awaited<ReturnType<typeof listOwnedNamespaces>>;
export type FeedbackCounts = Awaited<ReturnType<typeof countFeedback>>;

type Page<T> = { count: number; feedback: T[]; nextCursor?: string };
export type InboxPage = Page<InboxItem> & { namespace: string };
export type SubmissionsPage = Page<Submission> & { submitter: string };

/** Inbox filters as they appear in the URL; absent means "any". */
export type InboxFilters = {
  type?: FeedbackType;
  severity?: Severity;
  /** "open" (the default view), "resolved" or "all". */
  status: "open" | "resolved" | "all";
  /** One triage status ("stage" in the URL), on top of the open/resolved view. */
  stage?: FeedbackStatus;
  /** Groups with the most reports first, instead of the newest. */
  sort?: "reports";
  /** Only items carrying this label. */
  label?: string;
  /** Only items whose submitter confirmed the fix, or disputed it ("answer" in the URL). */
  answer?: "confirmed" | "disputed";
  q?: string;
};

export type ChangeStatusResult = z.output<typeof changeStatusResponseSchema>;

export type RegisterResult = {
  namespace: string;
  ownerWallet: string;
  existingFeedbackLinked: number;
  createdAt: string;
};

export type FollowUpResult = z.output<typeof followUpResponseSchema>;

export type ResolveResult = z.output<typeof resolveResponseSchema>;

/** A paid call's answer and the settlement transaction the service reported. */
export type Paid<T> = { result: T; txHash: string | null };
