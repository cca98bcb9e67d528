import { api } from "../http";
import type { FollowUpResult, Paid, SubmissionsPage } from "../types";
import { postPaid } from "./paid";

/** One page of what the signed-in wallet submitted, across namespaces, newest first. */
export function fetchSubmissionsPage(cursor?: string): Promise<SubmissionsPage> {
  const query = new URLSearchParams({ limit: "50" });
  if (cursor) query.set("cursor", cursor);
  return api<SubmissionsPage>(`/api/namespace/status?${query}`);
}

/** Answers the owner's question on an item; `pay` answers the 402 with the follow-up price. */
export function postFollowUp(
  pay: typeof fetch,
  input: { feedbackId: string; message: string },
): Promise<Paid<FollowUpResult>> {
  return postPaid<FollowUpResult>(pay, "/api/namespace/feedback/follow-up", input);
}

/** The submitter's answer to a resolution of its item: fixed, or not fixed (which reopens it). Free, signed in. */
export function postConfirm(input: { id: string; outcome: "fixed" | "not_fixed"; note?: string }) {
  return api<{ id: string; outcome: "fixed" | "not_fixed"; status: string; confirmedAt: string }>(
    "/api/namespace/feedback/confirm",
    { method: "POST", body: JSON.stringify(input) },
  );
}

/**
 * Sets (a new secret comes with it, shown once in this answer) or removes the callback of one of the wallet's
 * reports. Free, signed in; the service checks the URL as on submit.
 */
export function patchCallback(input: { id: string; callbackUrl: string | null }) {
  return api<{ id: string; callbackUrl: string | null; callbackSecret?: string }>(
    "/api/namespace/feedback/callback",
    { method: "PATCH", body: JSON.stringify(input) },
  );
}
