import Link from "next/link";
import { InboxIcon } from "@/components/ui/icons";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useOwnedNamespaces } from "@/lib/api-client/hooks/use-namespaces";

/** The namespaces a wallet owns, each linking to its inbox, with how many items are open. */
export function NamespaceList({ owner }: { owner: string }) {
  const query = useOwnedNamespaces(owner);
  if (query.isPending) {
    return (
      <div className="rounded-xl border border-zinc-200 bg-white">
        <SkeletonRows rows={3} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <ErrorState
        message={explainError(query.error, "load")}
        onRetry={isRetryable(query.error) ? () => query.refetch() : undefined}
      />
    );
  }
  const namespaces = query.data.namespaces;
  if (namespaces.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-zinc-300 bg-white">
        <EmptyState title="No namespaces yet" icon={<InboxIcon />}>
          Register a name to claim it: you will see everything agents already sent to it.
        </EmptyState>
      </div>
    );
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {namespaces.map((ns) => (
        <li key={ns.namespace}>
          <Link
            href={`/dashboard/${encodeURIComponent(ns.namespace)}`}
            className="group flex h-full flex-col rounded-xl border border-zinc-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <div className="flex items-start justify-between gap-3">
              <span className="font-mono font-medium text-zinc-900 group-hover:text-indigo-700">
                {ns.namespace}
              </span>
              <span
                title={`${ns.unresolved} open ${ns.unresolved === 1 ? "report" : "reports"}, duplicates counted`}
                className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${
                  ns.unresolved > 0 ? "bg-indigo-600 text-white" : "bg-zinc-100 text-zinc-600"
                }`}
              >
                {ns.unresolved} open
              </span>
            </div>
            {ns.description ? (
              <p className="mt-1 line-clamp-2 text-sm text-zinc-600">{ns.description}</p>
            ) : null}
            <p className="mt-auto pt-3 text-xs text-zinc-500">
              {ns.role === "owner" ? "Owner" : `${ns.role[0]!.toUpperCase()}${ns.role.slice(1)}`} · {ns.total}{" "}
              {ns.total === 1 ? "report" : "reports"} · registered <LocalTime iso={ns.createdAt} />
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
