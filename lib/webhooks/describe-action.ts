import { WEBHOOK_EVENTS } from "@/lib/schemas/webhook-events";
import {
  byTitle,
  type ChatMessage,
  COLOR,
  type DescribeContext,
  describeEvent,
  type Envelope,
  itemUrl,
  parseEvent,
  shortWallet,
  status,
} from "./describe-event";

type Of<T extends Envelope["type"]> = Extract<Envelope, { type: T }>["data"];

/** What one action did to one item, gathered from its events. */
type ItemChange = {
  id: string;
  move?: { from: string; to: string };
  resolved?: Of<"feedback.resolved">;
  paid?: Of<"reward.paid">;
  /** Each event's payload, to describe an item changed alone as its main event says it. */
  payloads: Map<string, unknown>;
};

/**
 * One chat message for the events one owner action queued (a delivery and the events folded into
 * it): an item's status change that accompanies its resolution is folded into the resolution, and
 * several items are listed one a line with what changed. A single event is described as it is.
 */
export function describeAction(payloads: unknown[], ctx: DescribeContext): ChatMessage {
  const events = payloads.map(parseEvent);
  if (payloads.length === 1 || events.some((e) => e === null || !("id" in e.data))) {
    return describeEvent(payloads[0], ctx);
  }
  const items = new Map<string, ItemChange>();
  for (const [i, event] of (events as Envelope[]).entries()) {
    const id = (event.data as { id: string }).id;
    const item: ItemChange = items.get(id) ?? { id, payloads: new Map() };
    items.set(id, item);
    item.payloads.set(event.type, payloads[i]);
    if (event.type === "feedback.status_changed") {
      item.move = { from: item.move?.from ?? event.data.from, to: event.data.to };
    } else if (event.type === "feedback.resolved") item.resolved = event.data;
    else if (event.type === "reward.paid") item.paid = event.data;
  }
  const first = events[0] as Envelope;
  const title = (i: ItemChange) => ({ id: i.id, title: ctx.titles.get(i.id) ?? null });
  const sorted = [...items.values()].sort((a, b) => byTitle(title(a), title(b)));
  return sorted.length === 1 ? describeOneItem(sorted[0]!, ctx) : describeItems(sorted, first, ctx);
}

/** One item: its main event's message (an answer, the resolution, else the move), with the reward's payment. */
function describeOneItem(item: ItemChange, ctx: DescribeContext): ChatMessage {
  // A reporter's answer is what its message is about: the reopening it made goes with it.
  const main =
    item.payloads.get("feedback.disputed") ??
    item.payloads.get("feedback.confirmed") ??
    item.payloads.get("feedback.resolved") ??
    item.payloads.get("feedback.status_changed") ??
    item.payloads.get("reward.paid");
  const message = describeEvent(main, ctx);
  if (!item.paid || main === item.payloads.get("reward.paid")) return message;
  const paid = [
    { name: "Reward paid", value: `${item.paid.amount} USD to ${shortWallet(item.paid.recipient)}` },
    { name: "Transaction", value: item.paid.txHash },
  ];
  return { ...message, fields: [...message.fields.filter((f) => f.name !== "Reward"), ...paid] };
}

/** What an action did to an item, in a few words: "open → resolved, reward of 0.5 USD paid". */
function changeOf(item: ItemChange): string {
  const parts: string[] = [];
  if (item.move) parts.push(`${status(item.move.from)} → ${status(item.move.to)}`);
  else if (item.resolved) parts.push("resolved");
  const reward = item.paid?.amount ?? item.resolved?.rewardAmount;
  if (reward) parts.push(`reward of ${reward} USD${item.paid ? " paid" : ""}`);
  return parts.join(", ");
}

function describeItems(items: ItemChange[], first: Envelope, ctx: DescribeContext): ChatMessage {
  const ns = first.data.namespace;
  const n = items.length;
  const targets = new Set(items.map((i) => (i.resolved ? "resolved" : i.move?.to)));
  const [only] = targets;
  const headline =
    targets.size === 1 && only === "resolved"
      ? `✅ ${n} items resolved in ${ns}`
      : targets.size === 1 && only
        ? `🔄 ${n} items moved to ${status(only)} in ${ns}`
        : `🔄 ${n} items changed in ${ns}`;
  const messages = items.map((i) => i.resolved?.message ?? null).filter((m) => m !== null);
  const moved = items.flatMap((i) => (i.payloads.get("feedback.status_changed") ? [i] : []));
  const said = parseEvent(moved[0]?.payloads.get("feedback.status_changed"));
  const message = messages[0] ?? (said?.type === "feedback.status_changed" ? said.data.message : null);
  const actor =
    items.find((i) => i.resolved)?.resolved?.resolvedBy ??
    (said?.type === "feedback.status_changed" ? said.data.changedBy : null);
  const named = new Set(items.flatMap((i) => [...i.payloads.keys()]));
  const types = WEBHOOK_EVENTS.filter((t) => named.has(t));
  return {
    headline,
    title: null,
    url: null,
    fields: [
      ...(message ? [{ name: "Message", value: message }] : []),
      ...(actor ? [{ name: "By", value: shortWallet(actor) }] : []),
    ],
    links: items.map((i) => ({
      text: ctx.titles.get(i.id) ?? i.id,
      url: itemUrl(ctx.origin, ns, i.id),
      note: changeOf(i),
    })),
    color: only === "resolved" ? COLOR.resolved : COLOR.status,
    at: first.timestamp,
    footer: `${ns} · ${types.join(", ")}`,
  };
}
