import { STATUS_LABELS } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { FeedbackRecord } from "@/lib/api-client/types";
import { shortAddress } from "../format";

type Entry = FeedbackRecord["history"][number];

/** What a change did, in words. Only a status change names a status: a label, a merge or an answer never does. */
export function what(entry: Pick<Entry, "kind" | "from" | "to" | "details">): string {
  switch (entry.kind) {
    case "follow_up":
      return entry.from === "needs_info" ? "answered, and the item is open again" : "answered";
    case "merged":
      return "merged this report into a group of duplicates";
    case "unmerged":
      return "took this report out of its group";
    case "suggested":
      return "suggested this report is alike another (not merged)";
    case "labels":
      return labelChange(entry.details);
    case "confirmation":
      return entry.details?.outcome === "not_fixed"
        ? "says the resolution did not fix it, and reopened the item"
        : "confirmed the resolution fixed it";
    case "status":
      if (!entry.to) return "changed the status";
      if (entry.from === "resolved" && entry.to !== "resolved")
        return `reopened as ${STATUS_LABELS[entry.to]}`;
      return `set ${STATUS_LABELS[entry.to]}`;
    default:
      return "changed the item";
  }
}

function labelChange(details: Entry["details"]): string {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const added = list(details?.added);
  const removed = list(details?.removed);
  const parts = [
    added.length ? `added the label${added.length > 1 ? "s" : ""} ${added.join(", ")}` : "",
    removed.length ? `removed the label${removed.length > 1 ? "s" : ""} ${removed.join(", ")}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" and ") : "changed the labels";
}

/** Every change to an item, oldest first: who, what, when, and the message that came with it. */
export function ItemHistory({ history }: { history: FeedbackRecord["history"] }) {
  if (history.length === 0) return null;
  return (
    <ol aria-label="History" className="space-y-3">
      {history.map((entry, i) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: a history only grows at its end; two changes may share a time
          key={`${i}-${entry.at}-${entry.kind}`}
          className="border-l-2 border-zinc-200 pl-3 text-sm"
        >
          <p className="text-zinc-600">
            <span className="font-mono text-zinc-800">
              {entry.actor === "service" ? "The service" : shortAddress(entry.actor)}
            </span>{" "}
            {what(entry)} · <LocalTime iso={entry.at} relative />
          </p>
          {entry.message ? (
            <p className="mt-1 break-words whitespace-pre-wrap text-zinc-900">{entry.message}</p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
