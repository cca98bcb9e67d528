import type { z } from "zod";
import type { knownIssuesResponseSchema, knownIssuesSettingsSchema } from "@/lib/schemas/known-issues";
import { api } from "../http";

export type KnownIssuesView = z.output<typeof knownIssuesResponseSchema>;
export type KnownIssuesSettings = z.output<typeof knownIssuesSettingsSchema>;
export type KnownIssuesChanges = { published?: boolean; hide?: string[]; unhide?: string[] };

/** The namespace's known issues as its owner reads them: published or not, hidden ones marked. */
export function fetchKnownIssues(namespace: string): Promise<KnownIssuesView> {
  const params = new URLSearchParams({ namespace, view: "owner", limit: "100" });
  return api<KnownIssuesView>(`/api/namespace/known-issues?${params}`);
}

/** Publishes or withdraws the list, or hides or shows items on it. */
export function patchKnownIssues(
  namespace: string,
  changes: KnownIssuesChanges,
): Promise<KnownIssuesSettings> {
  return api<KnownIssuesSettings>("/api/namespace/known-issues", {
    method: "PATCH",
    body: JSON.stringify({ namespace, ...changes }),
  });
}
