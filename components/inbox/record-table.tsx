import type { FeedbackRecord } from "@/lib/api-client/types";

// The stored record's fields in contract order (2.2), plus namespace and context.
const FIELDS = [
  "id",
  "namespace",
  "type",
  "title",
  "severity",
  "verified",
  "submitterDid",
  "submitterWallet",
  "resolved",
  "resolveMessage",
  "rewardAmount",
  "rewardTxHash",
  "createdAt",
  "resolvedAt",
  "resolvedBy",
] as const satisfies readonly (keyof FeedbackRecord)[];

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Every scalar field of the record as stored, exactly, for the curious and for copying. */
export function RecordTable({ item }: { item: FeedbackRecord }) {
  return (
    <details className="rounded-lg border border-zinc-200">
      <summary className="cursor-pointer px-3 py-2 text-sm text-zinc-600 select-none hover:bg-zinc-50">
        Raw record ({FIELDS.length} fields; description, steps, expected, actual, context, metadata and
        targets are shown above)
      </summary>
      <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-1 border-t border-zinc-200 p-3 text-xs">
        {FIELDS.map((field) => (
          <div key={field} className="contents">
            <dt className="text-zinc-500">{field}</dt>
            <dd className="min-w-0 font-mono break-all text-zinc-800">{show(item[field])}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
