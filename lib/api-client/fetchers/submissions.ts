import { api } from "../http";
import type { SubmissionsPage } from "../types";

/** One page of what the signed-in wallet submitted, across namespaces, newest first. */
export function fetchSubmissionsPage(cursor?: string): Promise<SubmissionsPage> {
  const query = new URLSearchParams({ limit: "50" });
  if (cursor) query.set("cursor", cursor);
  return api<SubmissionsPage>(`/api/namespace/status?${query}`);
}
