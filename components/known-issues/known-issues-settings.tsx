"use client";

import { BackToInbox } from "@/components/layout/back-to-inbox";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, Loading, Notice } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useChangeKnownIssues, useKnownIssues } from "@/lib/api-client/hooks/use-known-issues";
import { useSession } from "@/lib/api-client/hooks/use-session";

/**
 * The owner publishes its namespace's known issues (off by default), so agents search them before paying
 * to report one again, and leaves out any it would rather not show. What is published is exactly what
 * this page lists for each issue: its title, type, status and report count.
 */
export function KnownIssuesSettings({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const owner = session?.address ?? "";
  const list = useKnownIssues(owner, namespace);
  const change = useChangeKnownIssues(owner, namespace);
  const publicUrl = `/api/namespace/known-issues?namespace=${encodeURIComponent(namespace)}`;

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-6 sm:px-6">
      <div className="flex items-center gap-2">
        <BackToInbox namespace={namespace} />
        <h1 className="text-lg font-semibold tracking-tight">
          <span className="font-mono">{namespace}</span> · Known issues
        </h1>
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState
          message={explainError(list.error, "load")}
          onRetry={isRetryable(list.error) ? () => list.refetch() : undefined}
        />
      ) : (
        <>
          <section className="space-y-3 rounded-xl border border-zinc-200 bg-white p-5">
            <p className="text-sm text-zinc-700">
              {list.data.published ? (
                <>
                  Published: anyone can read these titles at{" "}
                  <a href={publicUrl} className="font-mono text-indigo-700 underline break-all">
                    {publicUrl}
                  </a>{" "}
                  and add a report to one instead of filing it again.
                </>
              ) : (
                "Not published: only you see this list. Publish it so agents search it before they pay to report an issue you already know about. Only each issue's title, type, status and report count are shown."
              )}
            </p>
            <Button
              variant={list.data.published ? "secondary" : "primary"}
              busy={change.isPending}
              onClick={() => change.mutate({ published: !list.data.published })}
            >
              {list.data.published ? "Withdraw the list" : "Publish known issues"}
            </Button>
            {change.isError ? <Notice tone="error">{explainError(change.error, "save")}</Notice> : null}
          </section>
          <section className="space-y-3">
            <h2 className="font-medium">Issues ({list.data.count})</h2>
            {list.data.issues.length === 0 ? (
              <p className="text-sm text-zinc-600">No issues yet: reports will show here as they arrive.</p>
            ) : (
              <ul
                aria-label="Known issues"
                className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white"
              >
                {list.data.issues.map((issue) => (
                  <li key={issue.id} className="flex flex-wrap items-center gap-2 px-4 py-3">
                    <span
                      className={`min-w-0 flex-1 break-words ${issue.hidden ? "text-zinc-500 line-through" : ""}`}
                    >
                      {issue.title}
                    </span>
                    <StatusBadge status={issue.status} />
                    <span className="text-sm text-zinc-600 tabular-nums">
                      {issue.reports} {issue.reports === 1 ? "report" : "reports"}
                    </span>
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={change.isPending}
                      aria-label={`${issue.hidden ? "Show" : "Hide"} “${issue.title}”`}
                      onClick={() =>
                        change.mutate(issue.hidden ? { unhide: [issue.id] } : { hide: [issue.id] })
                      }
                    >
                      {issue.hidden ? "Show" : "Hide"}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}
