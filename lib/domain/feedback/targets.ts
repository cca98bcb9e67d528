import type { FeedbackTarget } from "@/lib/db/schema";

const DNS_NAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

function hostOfUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const host = new URL(value).hostname.toLowerCase();
    return host || null;
  } catch {
    return null;
  }
}

/**
 * The hosts an item is about: the namespace when it is a DNS name, and the host of every http(s) URL
 * among metadata's top-level string values; one `domain` target per distinct host, in that order.
 */
export function targetsOf(namespace: string, metadata: Record<string, unknown> | null): FeedbackTarget[] {
  const hosts = new Set<string>();
  if (DNS_NAME.test(namespace)) hosts.add(namespace.toLowerCase());
  for (const value of Object.values(metadata ?? {})) {
    if (typeof value !== "string") continue;
    const host = hostOfUrl(value);
    if (host) hosts.add(host);
  }
  return [...hosts].map((host) => ({ kind: "domain", value: host, host }));
}
