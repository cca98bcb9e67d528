"use client";

import { BackToInbox } from "@/components/layout/back-to-inbox";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, Loading, Notice } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useChangeKnownIssues, useKnownIssues } from "@/lib/api-client/hooks/use-known-issues";
import { useRole } from "@/lib/api-client/hooks/use-role";
import { useSession } from "@/lib/api-client/hooks/use-session";

/**
 * The owner publishes its namespace's known issues (off by default), so agents search them before paying
 * to report one again, and leaves out any it would rather not show. What is published is exactly what
 * this page lists for each issue: its title, type, status, report count and public note. A report filed
 * after publishing waits here, unlisted, until the owner lists it, hides it or triages it in the inbox.
 */
export function KnownIssuesSettings({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const owner = session?.address ?? "";
  const list = useKnownIssues(owner, namespace);
  const change = useChangeKnownIssues(owner, namespace);
  const publicUrl = `/api/namespace/known-issues?namespace=${encodeURIComponent(namespace)}`;
  const waiting = list.data?.issues.filter((i) => i.awaitingReview) ?? [];
  // Publishing is an admin's or the owner's; listing and hiding a triager's too.
  const can = useRole(namespace).may;

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
                  Published: anyone, without signing in, can read the title, type, status, report count and
                  public note of every issue marked “Listed” at{" "}
                  <a href={publicUrl} className="font-mono text-indigo-700 underline break-all">
                    {publicUrl}
                  </a>{" "}
                  and add a report to an open one instead of filing it again. A report filed from now on is
                  not listed until you list it here, or triage it in the inbox: its title is the reporter's
                  own words.
                </>
              ) : (
                "Not published: only you see this list. Publishing lists every issue below that is not hidden, as it reads now: its title, type, status, report count and public note, for anyone to read without signing in. Reports filed afterwards wait for you before they are listed."
              )}
            </p>
            <Button
              variant={list.data.published ? "secondary" : "primary"}
              busy={change.isPending}
              disabled={!can("publish")}
              aria-describedby={can("publish") ? undefined : "publish-who"}
              onClick={() => change.mutate({ published: !list.data.published })}
            >
              {list.data.published ? "Withdraw the list" : "Publish known issues"}
            </Button>
            {can("publish") ? null : (
              <p id="publish-who" className="text-xs text-zinc-600">
                Only the owner and admins publish or withdraw the list.
              </p>
            )}
            {change.isError ? <Notice tone="error">{explainError(change.error, "save")}</Notice> : null}
          </section>
          {waiting.length > 0 ? (
            <section className="space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4">
              <p className="text-sm text-amber-900">
                {waiting.length} {waiting.length === 1 ? "report waits" : "reports wait"} for you: filed after
                you published, not listed until you list {waiting.length === 1 ? "it" : "them"}.
              </p>
              <Button
                variant="secondary"
                size="sm"
                busy={change.isPending}
                disabled={!can("triage")}
                onClick={() => change.mutate({ unhide: waiting.map((i) => i.id) })}
              >
                List all {waiting.length}
              </Button>
            </section>
          ) : null}
          <section className="space-y-3">
            <h2 className="font-medium">Issues ({list.data.count})</h2>
            {list.data.issues.length === 0 ? (
              <p className="text-sm text-zinc-600">No issues yet: reports will show here as they arrive.</p>
            ) : (
              <ul
                aria-label="Known issues"
                className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white"
              >
                {list.data.issues.map((issue) => {
                  const state = issue.hidden
                    ? "Hidden"
                    : issue.awaitingReview
                      ? "Awaiting review"
                      : list.data.published
                        ? "Listed"
                        : "Will be listed";
                  const listIt = issue.hidden || issue.awaitingReview;
                  return (
                    <li key={issue.id} className="flex flex-wrap items-center gap-2 px-4 py-3">
                      <span
                        className={`min-w-0 flex-1 break-words ${issue.hidden ? "text-zinc-500 line-through" : ""}`}
                      >
                        {issue.title}
                        {issue.note ? (
                          <span className="block text-xs text-zinc-600">Public note: {issue.note}</span>
                        ) : null}
                      </span>
                      <StatusBadge status={issue.status} />
                      <span className="text-sm text-zinc-600 tabular-nums">
                        {issue.reports} {issue.reports === 1 ? "report" : "reports"}
                      </span>
                      <span
                        className={`rounded px-1.5 py-0.5 text-xs ${issue.awaitingReview ? "bg-amber-100 text-amber-900" : "bg-zinc-100 text-zinc-700"}`}
                      >
                        {state}
                      </span>
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={change.isPending || !can("triage")}
                        aria-label={`${listIt ? "List" : "Hide"} “${issue.title}”`}
                        onClick={() => change.mutate(listIt ? { unhide: [issue.id] } : { hide: [issue.id] })}
                      >
                        {listIt ? "List" : "Hide"}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}
