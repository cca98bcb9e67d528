"use client";

import Link from "next/link";
import { useState } from "react";
import { SeverityBadge, StatusBadge, TypeBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { InboxIcon } from "@/components/ui/icons";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState, ErrorState, Notice, SkeletonRows } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { useSubmissions } from "@/lib/api-client/hooks/use-submissions";
import { usdLabel } from "@/lib/api-client/money";
import type { FollowUpResult, Paid, Submission } from "@/lib/api-client/types";
import { shortAddress } from "../format";
import { ItemHistory } from "../inbox/item-history";
import { AnswerForm } from "./answer-form";
import { CallbackForm } from "./callback-form";
import { ConfirmForm } from "./confirm-form";

/** What the signed-in wallet submitted across namespaces, and what became of each item. */
export function SubmissionsList() {
  const { session } = useSession();
  const query = useSubmissions(session?.address ?? "");
  const items = query.data?.pages.flatMap((p) => p.feedback) ?? [];
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your submissions</h1>
      <p className="mt-1 text-sm text-zinc-600">
        Feedback paid for by <span className="font-mono">{shortAddress(session?.address)}</span>, in every
        namespace, newest first.
      </p>
      <div className="mt-6 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm">
        {query.isPending ? (
          <SkeletonRows rows={4} />
        ) : query.isError && items.length === 0 ? (
          <ErrorState
            message={explainError(query.error, "load")}
            onRetry={isRetryable(query.error) ? () => query.refetch() : undefined}
          />
        ) : items.length === 0 ? (
          <EmptyState icon={<InboxIcon />} title="Nothing submitted from this wallet yet">
            Agents submit through the API with the wallet that pays.{" "}
            <Link href="/#agents" className="underline">
              See how
            </Link>
            .
          </EmptyState>
        ) : (
          <ul aria-label="Submissions" className="divide-y divide-zinc-100">
            {items.map((item) => (
              <SubmissionRow key={item.id} item={item} submitter={session?.address ?? ""} />
            ))}
          </ul>
        )}
      </div>
      {query.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            size="sm"
            busy={query.isFetchingNextPage}
            onClick={() => query.fetchNextPage()}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function SubmissionRow({ item, submitter }: { item: Submission; submitter: string }) {
  const resolution = "resolution" in item ? item.resolution : undefined;
  const [answered, setAnswered] = useState<Paid<FollowUpResult> | null>(null);
  return (
    <li className="p-4" data-testid="submission">
      <div className="flex items-start gap-2">
        <TypeBadge type={item.type} />
        <p className="min-w-0 flex-1 text-sm font-medium break-words">{item.title}</p>
        <StatusBadge status={item.status} />
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-zinc-500">
        <span className="font-mono">{item.namespace}</span>
        <span>
          · <LocalTime iso={item.createdAt} />
        </span>
        <SeverityBadge severity={item.severity} />
      </p>
      {!resolution ? <OwnerNote item={item} /> : null}
      {item.status === "needs_info" && !answered ? (
        <AnswerForm submitter={submitter} feedbackId={item.id} onAnswered={setAnswered} />
      ) : null}
      {answered ? (
        <div className="mt-3">
          <Notice tone="success">
            Answer sent: the item is back in the owner&apos;s open items.
            {answered.txHash ? (
              <span className="mt-1 block font-mono text-xs break-all" data-testid="answer-tx">
                Transaction {answered.txHash}
              </span>
            ) : null}
          </Notice>
        </div>
      ) : null}
      {resolution ? (
        <div className="mt-3 rounded-lg border-l-2 border-emerald-400 bg-emerald-50/60 px-3 py-2 text-sm">
          <p className="text-xs text-emerald-800">
            Resolved <LocalTime iso={resolution.resolvedAt} />
          </p>
          {resolution.message ? (
            <p className="mt-1 break-words whitespace-pre-wrap text-zinc-800">{resolution.message}</p>
          ) : (
            <p className="mt-1 text-zinc-500">No message.</p>
          )}
          {resolution.rewardAmount ? (
            <p className="mt-2 text-xs text-zinc-700">
              Tip received: <span className="font-semibold">{usdLabel(resolution.rewardAmount)}</span>
              {resolution.rewardTxHash ? (
                <span className="mt-1 flex flex-wrap items-center gap-1 font-mono break-all">
                  {resolution.rewardTxHash}
                  <CopyButton text={resolution.rewardTxHash} label="Copy hash" />
                </span>
              ) : null}
            </p>
          ) : null}
          <ConfirmForm submitter={submitter} item={item} />
        </div>
      ) : null}
      <CallbackForm submitter={submitter} item={item} />
      {item.history.length ? (
        <details className="mt-3 text-sm" open={answered !== null}>
          <summary className="cursor-pointer text-xs font-medium text-zinc-600">
            History · {item.history.length} {item.history.length === 1 ? "change" : "changes"}
          </summary>
          <div className="mt-2">
            <ItemHistory history={item.history} />
          </div>
        </details>
      ) : null}
    </li>
  );
}

/** The owner's latest word on an open item: a question when it needs information, else a note. */
function OwnerNote({ item }: { item: Submission }) {
  const last = item.history.findLast((h) => h.kind === "status" && h.message);
  if (!last?.message) return null;
  const asking = item.status === "needs_info";
  // Once answered, the question is past: the answer is the newest entry of the history below.
  const answered = !asking && item.history.at(-1)?.kind === "follow_up";
  // A resolution the item has left (reopened, say after "Not fixed") is the past, not the owner's new word.
  const pastResolution = last.to === "resolved" && !item.resolved;
  const disputed = pastResolution && item.confirmation?.outcome === "not_fixed";
  return (
    <div
      className={`mt-3 rounded-lg border-l-2 px-3 py-2 text-sm ${
        asking ? "border-amber-400 bg-amber-50/70" : "border-zinc-300 bg-zinc-50"
      }`}
      data-testid="owner-note"
    >
      <p className={`text-xs ${asking ? "text-amber-900" : "text-zinc-600"}`}>
        {asking
          ? "The owner asks"
          : answered
            ? "The owner asked (you answered)"
            : disputed
              ? "The earlier resolution (you said it did not fix it)"
              : pastResolution
                ? "The earlier resolution"
                : "The owner says"}{" "}
        · <LocalTime iso={last.at} relative />
      </p>
      <p className="mt-1 break-words whitespace-pre-wrap text-zinc-800">{last.message}</p>
    </div>
  );
}
