import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { explainError } from "@/lib/api-client/explain";
import { useChangeStatus } from "@/lib/api-client/hooks/use-triage";
import type { FeedbackStatus, InboxItem } from "@/lib/api-client/types";
import { LabelEditor } from "./labels";
import { MergeDialog, type MergeDone } from "./merge-dialog";
import { StatusSelect } from "./status-select";

type Props = {
  owner: string;
  namespace: string;
  picked: InboxItem[];
  onDone: () => void;
  /** A merge went through: the inbox offers to undo it. */
  onMerged: (done: MergeDone) => void;
};

/** Acts on every picked row at once: one status for all, or one group of duplicates for all (asked first). */
export function BulkBar({ owner, namespace, picked, onDone, onMerged }: Props) {
  const [status, setStatus] = useState<FeedbackStatus>("acknowledged");
  const change = useChangeStatus(owner, namespace);
  const [merging, setMerging] = useState(false);
  const statusId = useId();
  const questionId = useId();
  const errorId = useId();
  const questionRef = useRef<HTMLInputElement>(null);
  const [question, setQuestion] = useState("");
  // "Needs info" asks each submitter a question: without one they would get an answer form and nothing to answer.
  const [unasked, setUnasked] = useState(false);
  const asks = status === "needs_info";
  const ids = picked.map((i) => i.id);
  const error = change.error;

  return (
    <section
      aria-label="Selected items"
      className="sticky top-0 z-10 flex flex-wrap items-center gap-2 border-b border-indigo-200 bg-indigo-50 px-4 py-2 text-sm"
    >
      <span className="font-medium text-indigo-900">{picked.length} selected</span>
      <label htmlFor={statusId} className="sr-only">
        Status for the selected items
      </label>
      <StatusSelect
        id={statusId}
        value={status}
        onChange={(next) => {
          setStatus(next);
          setUnasked(false);
        }}
      />
      {asks ? (
        <>
          <label htmlFor={questionId} className="sr-only">
            Question for the submitters
          </label>
          <input
            id={questionId}
            ref={questionRef}
            value={question}
            onChange={(e) => {
              setQuestion(e.target.value);
              setUnasked(false);
            }}
            required
            maxLength={2000}
            aria-invalid={unasked || undefined}
            aria-describedby={unasked ? errorId : undefined}
            placeholder="Your question (required)"
            className="h-8 min-w-0 flex-1 basis-48 rounded-lg border border-zinc-300 bg-white px-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
          />
        </>
      ) : null}
      <Button
        size="sm"
        variant="secondary"
        busy={change.isPending}
        onClick={() => {
          if (asks && question.trim() === "") {
            setUnasked(true);
            questionRef.current?.focus();
            return;
          }
          change.mutate({ ids, status, message: asks ? question : "" }, { onSuccess: onDone });
        }}
      >
        Set status
      </Button>
      {picked.length > 1 ? (
        <Button size="sm" variant="secondary" onClick={() => setMerging(true)}>
          Merge as duplicates…
        </Button>
      ) : null}
      {merging ? (
        <MergeDialog
          owner={owner}
          namespace={namespace}
          picked={picked}
          onClose={() => setMerging(false)}
          onMerged={(done) => {
            setMerging(false);
            onMerged(done);
            onDone();
          }}
        />
      ) : null}
      <LabelEditor owner={owner} namespace={namespace} ids={ids} compact />
      <Button size="sm" variant="ghost" onClick={onDone} className="ml-auto">
        Clear
      </Button>
      {unasked ? (
        <p id={errorId} role="alert" className="basis-full text-red-700">
          Write the question the submitters should answer: &ldquo;Needs info&rdquo; asks them one.
        </p>
      ) : error ? (
        <p role="alert" className="basis-full text-red-700">
          {explainError(error, "save")}
        </p>
      ) : null}
    </section>
  );
}
