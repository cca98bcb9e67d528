import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { explainError } from "@/lib/api-client/explain";
import { useChangeStatus } from "@/lib/api-client/hooks/use-triage";
import type { FeedbackRecord, FeedbackStatus } from "@/lib/api-client/types";
import { StatusSelect } from "./status-select";

// Resolving with a tip goes through the resolve dialog (it is paid); here it is the free resolve.
const PROMPTS: Partial<Record<FeedbackStatus, string>> = {
  needs_info: "Your question (required): what do you need to know? The submitter sees it and can answer.",
  wont_fix: "Why not? The submitter sees this.",
  resolved: "A message for the submitter (optional).",
};

/** Moves the item through triage, with a message the submitter sees in its history. */
export function TriagePanel({
  owner,
  namespace,
  item,
}: {
  owner: string;
  namespace: string;
  item: FeedbackRecord;
}) {
  const [status, setStatus] = useState<FeedbackStatus>(item.status);
  const [message, setMessage] = useState("");
  const change = useChangeStatus(owner, namespace);
  const selectId = useId();
  const messageId = useId();
  const errorId = useId();
  const messageRef = useRef<HTMLTextAreaElement>(null);
  // "Needs info" asks the submitter a question: without one it would show an answer form and nothing to answer.
  const [unasked, setUnasked] = useState(false);
  const changed = status !== item.status;
  const asks = status === "needs_info";

  function apply() {
    if (asks && message.trim() === "") {
      setUnasked(true);
      messageRef.current?.focus();
      return;
    }
    change.mutate({ ids: [item.id], status, message }, { onSuccess: () => setMessage("") });
  }

  return (
    <section aria-label="Triage" className="mt-4 rounded-xl border border-zinc-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="text-sm font-medium text-zinc-700">
          Status
        </label>
        <StatusSelect
          id={selectId}
          value={status}
          onChange={(next) => {
            setStatus(next);
            setUnasked(false);
          }}
        />
        <Button size="sm" variant="secondary" onClick={apply} disabled={!changed} busy={change.isPending}>
          {item.status === "resolved" && changed ? "Reopen" : "Update"}
        </Button>
      </div>
      {changed ? (
        <div className="mt-2">
          <label htmlFor={messageId} className="sr-only">
            Message to the submitter
          </label>
          <textarea
            id={messageId}
            ref={messageRef}
            value={message}
            onChange={(e) => {
              setMessage(e.target.value);
              setUnasked(false);
            }}
            required={asks}
            aria-invalid={unasked || undefined}
            aria-describedby={unasked ? errorId : undefined}
            maxLength={2000}
            rows={2}
            placeholder={PROMPTS[status] ?? "A note for the submitter (optional)."}
            className="w-full rounded-lg border border-zinc-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
          />
          {unasked ? (
            <p id={errorId} role="alert" className="text-sm text-red-700">
              Write the question the submitter should answer: &ldquo;Needs info&rdquo; asks them one.
            </p>
          ) : null}
        </div>
      ) : null}
      {change.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {explainError(change.error, "save")}
        </p>
      ) : null}
    </section>
  );
}
