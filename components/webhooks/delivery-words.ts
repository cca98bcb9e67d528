import type { Tone } from "@/components/ui/badge";
import type { WebhookDelivery } from "@/lib/api-client/fetchers/webhooks";

export const STATUS_TONES: Record<WebhookDelivery["status"], Tone> = {
  delivered: "green",
  pending: "amber",
  failed: "rose",
};

const EVENT_WORDS: Record<string, string> = {
  "feedback.created": "new",
  "feedback.resolved": "resolved",
  "feedback.status_changed": "status changed",
  "reward.paid": "reward paid",
};

/** What a delivery did to one item, in a few words: "status changed, resolved". */
export function changesOf(events: string[]): string {
  return events.map((e) => EVENT_WORDS[e] ?? e).join(", ");
}

/** The receiver's last answer in brief: its status code, or why nothing answered. */
export function answerOf(d: WebhookDelivery): string {
  if (d.lastStatusCode !== null) return `HTTP ${d.lastStatusCode}`;
  return d.lastError ?? "—";
}

/** The body sent, indented when it is JSON, so the log reads it easily. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** The path of a dashboard URL, so the link stays on the origin the owner is using. */
export function pathOf(url: string): string {
  try {
    const { pathname, search } = new URL(url);
    return `${pathname}${search}`;
  } catch {
    return url;
  }
}
