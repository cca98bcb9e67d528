import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { explainError } from "@/lib/api-client/explain";
import { useMerge, useUnmerge } from "@/lib/api-client/hooks/use-triage";
import type { FeedbackRecord } from "@/lib/api-client/types";
import { shortAddress } from "../format";

type Props = { owner: string; namespace: string; item: FeedbackRecord };
type Member = NonNullable<FeedbackRecord["group"]>[number];

/** How a report sits in its group, in words. */
export function GroupKindBadge({ kind }: { kind: Member["groupKind"] }) {
  if (kind === null) return <span className="text-xs text-zinc-600">first report</span>;
  return kind === "merged" ? (
    <span className="rounded-md bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-800">merged</span>
  ) : (
    <span className="rounded-md bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-900">suggested</span>
  );
}

/**
 * The other reports of an item's group. A suggested one (the service found it alike) is only a
 * suggestion: the owner merges it, or says it is not alike; nothing is ever done to it unasked.
 */
export function ItemGroup({ owner, namespace, item }: Props) {
  const merge = useMerge(owner, namespace);
  const unmerge = useUnmerge(owner, namespace);
  const head = item.groupId ?? item.id;
  const takeOut = (id: string) => unmerge.mutate({ ids: [id], head });
  const accept = (id: string) => merge.mutate({ into: head, ids: [id] });
  const busy = merge.isPending || unmerge.isPending;
  const error = merge.error ?? unmerge.error;
  return (
    <div>
      {item.groupId ? (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-zinc-600">
          {item.groupKind === "suggested"
            ? "The service suggests this report is alike the first one below; it is not merged."
            : "You merged this report into the group below."}
          {item.groupKind === "suggested" ? (
            <Button size="sm" variant="secondary" busy={busy} onClick={() => accept(item.id)}>
              Merge
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" busy={busy} onClick={() => takeOut(item.id)}>
            {item.groupKind === "suggested" ? "Not alike" : "Take this report out"}
          </Button>
        </p>
      ) : null}
      <ul
        aria-label="Reports in this group"
        className="divide-y divide-zinc-100 rounded-xl border border-zinc-200"
      >
        {(item.group ?? []).map((g) => (
          <li key={g.id} className="px-3 py-2 text-sm">
            {/* The whole title, on its own line: the words that differ are what tell two reports apart. */}
            <p className="break-words text-zinc-900" data-testid="group-title">
              {g.title}
            </p>
            <div className="mt-1 flex flex-wrap items-center gap-2">
              <StatusBadge status={g.status} />
              <GroupKindBadge kind={g.id === head ? null : g.groupKind} />
              <span className="font-mono text-xs text-zinc-600">{shortAddress(g.submitterWallet)}</span>
              <span className="text-xs text-zinc-600">
                <LocalTime iso={g.createdAt} relative />
              </span>
              {g.id !== head && g.groupKind === "suggested" ? (
                <>
                  <Button size="sm" variant="secondary" busy={busy} onClick={() => accept(g.id)}>
                    Merge
                  </Button>
                  <Button size="sm" variant="ghost" busy={busy} onClick={() => takeOut(g.id)}>
                    Not alike
                  </Button>
                </>
              ) : g.id !== head ? (
                <Button size="sm" variant="ghost" busy={busy} onClick={() => takeOut(g.id)}>
                  Take out
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {explainError(error, "save")}
        </p>
      ) : null}
    </div>
  );
}
