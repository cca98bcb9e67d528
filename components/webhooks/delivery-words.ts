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
  "feedback.confirmed": "fix confirmed",
  "feedback.disputed": "not fixed",
  "reward.paid": "reward paid",
};

// The event a one-item message is about, as its chat message says it: an answer, the resolution, else the move.
const MAIN_EVENTS = [
  "feedback.disputed",
  "feedback.confirmed",
  "feedback.resolved",
  "feedback.status_changed",
  "reward.paid",
  "feedback.created",
];

/**
 * The event a delivery is listed under: its own type, or for a message that carried one item's several
 * events (a resolve: the status change and the resolution), the one its message is about.
 */
export function headlineOf(d: Pick<WebhookDelivery, "eventType" | "items">): string {
  const events = d.items.length === 1 ? d.items[0]!.events : [];
  return MAIN_EVENTS.find((e) => events.includes(e)) ?? d.eventType;
}

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
