import type { z } from "zod";
import { type WebhookEventType, webhookEnvelopeSchema, webhookEventData } from "@/lib/schemas/webhook-events";

type ChatField = { name: string; value: string };
/** A linked line of a list; `note` is plain text shown after the link (what changed). */
type ChatLink = { text: string; url: string; note?: string };

/**
 * A delivery as the chat formats show it, all in plain text: user-supplied parts (titles, messages)
 * are not escaped here, each format escapes and shortens them its own way.
 */
export type ChatMessage = {
  headline: string;
  /** The item's title (or its id when the title is not known), linked to `url`. */
  title: string | null;
  url: string | null;
  fields: ChatField[];
  /** A list of items: the digest's newest, or the items one action changed. */
  links: ChatLink[];
  /** An accent colour, 0xRRGGBB. */
  color: number;
  at: string | null;
  footer: string;
};

/** What describing needs beside the event: the dashboard's origin and the titles of the items named. */
export type DescribeContext = { origin: string; titles: ReadonlyMap<string, string> };

const STATUS_WORDS: Record<string, string> = {
  in_progress: "in progress",
  needs_info: "needs info",
  wont_fix: "won't fix",
};
/** A status as a person reads it ("needs info", not "needs_info"). */
export const status = (s: string) => STATUS_WORDS[s] ?? s;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** A wallet address shortened to 0x1234…abcd; any other actor ("service") as it is. */
export const shortWallet = (w: string) =>
  /^0x[0-9a-fA-F]{40}$/.test(w) ? `${w.slice(0, 6)}…${w.slice(-4)}` : w;
const EMOJI: Record<string, string> = { bug: "🐞", feature: "💡", feedback: "💬" };
/** Accent colours of the chat messages, by what they announce. */
export const COLOR = {
  bug: 0xe11d48,
  feature: 0x6366f1,
  feedback: 0x0ea5e9,
  resolved: 0x10b981,
  status: 0xf59e0b,
  reward: 0x8b5cf6,
  disputed: 0xea580c,
  quiet: 0x71717a,
} as const;

/** A stored delivery payload as the event it holds, checked against its schema; null if unknown. */
export function parseEvent(payload: unknown): Envelope | null {
  const type = (payload as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !(type in webhookEventData)) return null;
  const parsed = webhookEnvelopeSchema(type as WebhookEventType).safeParse(payload);
  return parsed.success ? (parsed.data as Envelope) : null;
}

/** The dashboard link of an item: the inbox with the item open. */
export function itemUrl(origin: string, namespace: string, id: string): string {
  return `${origin}/dashboard/${encodeURIComponent(namespace)}?status=all&item=${encodeURIComponent(id)}`;
}

type Titled = { id: string; title: string | null };
/** Items in a steady order, the same in a chat message and the log: by title, then id. */
export const byTitle = (a: Titled, b: Titled) =>
  (a.title ?? "\uffff").localeCompare(b.title ?? "\uffff") || a.id.localeCompare(b.id);

/** The chat message for a stored delivery payload ({type, timestamp, data}); a generic one if unknown. */
export function describeEvent(payload: unknown, ctx: DescribeContext): ChatMessage {
  const type = (payload as { type?: unknown } | null)?.type;
  const event = parseEvent(payload);
  if (event) return describeKnown(event, ctx);
  const namespace = String((payload as { data?: { namespace?: unknown } } | null)?.data?.namespace ?? "");
  return {
    headline: `${typeof type === "string" ? type : "An event"} in ${namespace || "your namespace"}`,
    title: null,
    url: null,
    fields: [],
    links: [],
    color: COLOR.quiet,
    at: null,
    footer: "Feedback service",
  };
}

/** A known event, as its published schema reads it. */
export type Envelope = {
  [T in WebhookEventType]: { type: T; timestamp: string; data: DataOf<T> };
}[WebhookEventType];
type DataOf<T extends WebhookEventType> = z.output<(typeof webhookEventData)[T]>;

function describeKnown(event: Envelope, ctx: DescribeContext): ChatMessage {
  const ns = event.data.namespace;
  const item = (id: string) => ({ title: ctx.titles.get(id) ?? id, url: itemUrl(ctx.origin, ns, id) });
  const base = { links: [], at: event.timestamp, footer: `${ns} · ${event.type}` };
  switch (event.type) {
    case "feedback.created": {
      const d = event.data;
      return {
        ...base,
        headline: `${EMOJI[d.type]} New ${d.type} in ${ns}`,
        title: d.title,
        url: item(d.id).url,
        fields: d.severity ? [{ name: "Severity", value: d.severity }] : [],
        color: COLOR[d.type],
      };
    }
    case "feedback.resolved": {
      const d = event.data;
      return {
        ...base,
        headline: `✅ Resolved in ${ns}`,
        ...item(d.id),
        fields: [
          ...(d.message ? [{ name: "Message", value: d.message }] : []),
          ...(d.rewardAmount ? [{ name: "Reward", value: `${d.rewardAmount} USD` }] : []),
          { name: "Resolved by", value: shortWallet(d.resolvedBy) },
        ],
        color: COLOR.resolved,
      };
    }
    case "feedback.status_changed": {
      const d = event.data;
      return {
        ...base,
        headline: `🔄 ${status(d.from)} → ${status(d.to)} in ${ns}`,
        ...item(d.id),
        fields: [
          ...(d.message ? [{ name: "Message", value: d.message }] : []),
          { name: "Changed by", value: shortWallet(d.changedBy) },
        ],
        color: d.to === "resolved" ? COLOR.resolved : COLOR.status,
      };
    }
    case "feedback.confirmed":
    case "feedback.disputed": {
      const d = event.data;
      const fixed = event.type === "feedback.confirmed";
      return {
        ...base,
        headline: fixed
          ? `👍 Fix confirmed in ${ns}`
          : `⚠️ Not fixed, says its reporter, in ${ns}: open again`,
        ...item(d.id),
        fields: [
          ...(d.note ? [{ name: fixed ? "Note" : "What still fails", value: d.note }] : []),
          { name: "Reporter", value: shortWallet(d.submitter) },
        ],
        color: fixed ? COLOR.resolved : COLOR.disputed,
      };
    }
    case "reward.paid": {
      const d = event.data;
      return {
        ...base,
        headline: `💸 Reward of ${d.amount} USD paid in ${ns}`,
        ...item(d.id),
        fields: [
          { name: "Recipient", value: shortWallet(d.recipient) },
          { name: "Transaction", value: d.txHash },
        ],
        color: COLOR.reward,
      };
    }
    case "member.added": {
      const d = event.data;
      return {
        ...base,
        headline: d.previousRole
          ? `👥 ${shortWallet(d.wallet)} is now ${article(d.role)} ${d.role} of ${ns} (was ${d.previousRole})`
          : `👥 ${shortWallet(d.wallet)} joined ${ns} as ${article(d.role)} ${d.role}`,
        title: null,
        url: null,
        fields: [{ name: "Added by", value: shortWallet(d.by) }],
        color: COLOR.quiet,
      };
    }
    case "member.removed": {
      const d = event.data;
      return {
        ...base,
        headline: `👥 ${shortWallet(d.wallet)} (${d.role}) left ${ns}`,
        title: null,
        url: null,
        fields: [{ name: "Removed by", value: shortWallet(d.by) }],
        color: COLOR.quiet,
      };
    }
    case "namespace.transfer_proposed": {
      const d = event.data;
      return {
        ...base,
        headline: `🔑 Transfer of ${ns} proposed to ${shortWallet(d.to)}`,
        title: null,
        url: null,
        fields: [{ name: "Expires", value: d.expiresAt }],
        color: COLOR.disputed,
      };
    }
    case "namespace.transferred": {
      const d = event.data;
      return {
        ...base,
        headline: `🔑 ${ns} now belongs to ${shortWallet(d.to)}`,
        title: null,
        url: null,
        fields: [{ name: "Previous owner, now an admin", value: shortWallet(d.from) }],
        color: COLOR.disputed,
      };
    }
    case "webhook.test":
      return {
        ...base,
        headline: `🔔 Test message from ${ns}`,
        title: null,
        url: null,
        fields: [{ name: "Message", value: event.data.message }],
        color: COLOR.quiet,
      };
    case "digest.daily": {
      const d = event.data;
      const created = (["bug", "feature", "feedback"] as const)
        .filter((t) => d.created[t] > 0)
        .map((t) => plural(d.created[t], t, t === "feedback" ? "feedback" : undefined));
      const moves = Object.entries(d.statusChanges.to)
        .filter(([, n]) => n > 0)
        .map(([to, n]) => `${n} ${status(to)}`);
      return {
        ...base,
        headline: `📊 Daily digest for ${ns}, ${d.date}`,
        title: null,
        url: null,
        fields: [
          {
            name: "New items",
            value: `${d.created.total}${created.length ? ` (${created.join(", ")})` : ""}`,
          },
          {
            name: "Status changes",
            value: `${d.statusChanges.total}${moves.length ? ` (${moves.join(", ")})` : ""}`,
          },
          { name: "Rewards paid", value: `${d.rewards.count} (${d.rewards.amount} USD)` },
        ],
        links: d.newest.map((n) => ({ text: `${EMOJI[n.type]} ${n.title}`, url: item(n.id).url })),
        color: COLOR.quiet,
      };
    }
  }
}

const article = (role: string) => (role === "admin" ? "an" : "a");
