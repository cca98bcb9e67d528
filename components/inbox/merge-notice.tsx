import { Button } from "@/components/ui/button";
import { XIcon } from "@/components/ui/icons";
import { explainError } from "@/lib/api-client/explain";
import { useUndoMerge } from "@/lib/api-client/hooks/use-triage";
import type { MergeDone } from "./merge-dialog";

type Props = { owner: string; namespace: string; done: MergeDone; onDismiss: () => void };

/**
 * Says what the last merge did and undoes all of it in one step: every report it moved goes back where it was
 * (a report the service had only suggested comes back merged). After the undo it says so, and offers nothing.
 */
export function MergeNotice({ owner, namespace, done, onDismiss }: Props) {
  const undo = useUndoMerge(owner, namespace);
  const moved = done.moved.length;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 border-b border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-900"
    >
      <span className="min-w-0 flex-1 break-words">
        {undo.isSuccess
          ? "Merge undone: every report is back where it was."
          : `Merged: “${done.title}” now leads a group of ${done.reports} reports (${moved} moved).`}
      </span>
      {undo.isSuccess ? null : (
        <Button
          size="sm"
          variant="secondary"
          busy={undo.isPending}
          onClick={() => undo.mutate({ moved: done.moved, head: done.head })}
        >
          {undo.isError ? "Finish undoing" : "Undo merge"}
        </Button>
      )}
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="rounded-md p-1 text-emerald-800 hover:bg-emerald-100"
      >
        <XIcon className="size-4" />
      </button>
      {undo.isError ? (
        <p role="alert" className="basis-full text-red-700">
          The undo stopped partway: {explainError(undo.error, "save")} Press “Finish undoing” to complete it.
        </p>
      ) : null}
    </div>
  );
}
