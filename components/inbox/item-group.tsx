import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { explainError } from "@/lib/api-client/explain";
import { useUnmerge } from "@/lib/api-client/hooks/use-triage";
import type { FeedbackRecord } from "@/lib/api-client/types";
import { shortAddress } from "../format";

type Props = { owner: string; namespace: string; item: FeedbackRecord };

/** The other reports of an item's group of duplicates, each of which can be taken out again. */
export function ItemGroup({ owner, namespace, item }: Props) {
  const unmerge = useUnmerge(owner, namespace);
  const head = item.groupId ?? item.id;
  const takeOut = (id: string) => unmerge.mutate({ ids: [id], head });
  return (
    <div>
      {item.groupId ? (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-zinc-600">
          This report is grouped under <span className="font-mono text-zinc-800">{item.groupId}</span>.
          <Button size="sm" variant="ghost" busy={unmerge.isPending} onClick={() => takeOut(item.id)}>
            Take this report out
          </Button>
        </p>
      ) : null}
      <ul
        aria-label="Reports in this group"
        className="divide-y divide-zinc-100 rounded-xl border border-zinc-200"
      >
        {item.group.map((g) => (
          <li key={g.id} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
            <span className="min-w-0 flex-1 truncate text-zinc-900">{g.title}</span>
            <StatusBadge status={g.status} />
            <span className="font-mono text-xs text-zinc-500">{shortAddress(g.submitterWallet)}</span>
            <span className="text-xs text-zinc-400">
              <LocalTime iso={g.createdAt} relative />
            </span>
            {g.id !== head ? (
              <Button size="sm" variant="ghost" busy={unmerge.isPending} onClick={() => takeOut(g.id)}>
                Take out
              </Button>
            ) : (
              <span className="text-xs text-zinc-500">first report</span>
            )}
          </li>
        ))}
      </ul>
      {unmerge.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {explainError(unmerge.error, "save")}
        </p>
      ) : null}
    </div>
  );
}
