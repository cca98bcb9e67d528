import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { explainError } from "@/lib/api-client/explain";
import { useChangeStatus, useMerge } from "@/lib/api-client/hooks/use-triage";
import type { FeedbackStatus, InboxItem } from "@/lib/api-client/types";
import { LabelEditor } from "./labels";
import { StatusSelect } from "./status-select";

type Props = { owner: string; namespace: string; picked: InboxItem[]; onDone: () => void };

/** Acts on every picked row at once: one status for all, or one group of duplicates for all. */
export function BulkBar({ owner, namespace, picked, onDone }: Props) {
  const [status, setStatus] = useState<FeedbackStatus>("acknowledged");
  const change = useChangeStatus(owner, namespace);
  const merge = useMerge(owner, namespace);
  const statusId = useId();
  const ids = picked.map((i) => i.id);
  // The group with the most reports keeps its head; on a tie, the oldest report.
  const into = [...picked].sort(
    (a, b) => b.reportCount - a.reportCount || a.createdAt.localeCompare(b.createdAt),
  )[0];
  const error = change.error ?? merge.error;

  return (
    <section
      aria-label="Selected items"
      className="sticky top-0 z-10 flex flex-wrap items-center gap-2 border-b border-indigo-200 bg-indigo-50 px-4 py-2 text-sm"
    >
      <span className="font-medium text-indigo-900">{picked.length} selected</span>
      <label htmlFor={statusId} className="sr-only">
        Status for the selected items
      </label>
      <StatusSelect id={statusId} value={status} onChange={setStatus} />
      <Button
        size="sm"
        variant="secondary"
        busy={change.isPending}
        onClick={() => change.mutate({ ids, status, message: "" }, { onSuccess: onDone })}
      >
        Set status
      </Button>
      {picked.length > 1 && into ? (
        <Button
          size="sm"
          variant="secondary"
          busy={merge.isPending}
          onClick={() =>
            merge.mutate({ into: into.id, ids: ids.filter((id) => id !== into.id) }, { onSuccess: onDone })
          }
        >
          Merge as duplicates
        </Button>
      ) : null}
      <LabelEditor owner={owner} namespace={namespace} ids={ids} compact />
      <Button size="sm" variant="ghost" onClick={onDone} className="ml-auto">
        Clear
      </Button>
      {error ? (
        <p role="alert" className="basis-full text-red-700">
          {explainError(error, "save")}
        </p>
      ) : null}
    </section>
  );
}
