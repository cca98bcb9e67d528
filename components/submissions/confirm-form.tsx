import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import { RESOLVE_MESSAGE_MAX } from "@/lib/api-client/form-schemas";
import { useConfirmFix } from "@/lib/api-client/hooks/use-submissions";
import type { Submission } from "@/lib/api-client/types";

type Props = { submitter: string; item: Submission };

/**
 * The submitter's answer to a resolution: "Fixed" confirms it (with a note for the owner, if it likes: "Fixed,
 * with a note"); "Not fixed" asks what still fails and reopens the item for the owner. Free (signed in), once
 * per resolution; an answer already given is shown instead.
 */
export function ConfirmForm({ submitter, item }: Props) {
  const confirm = useConfirmFix(submitter);
  const [writing, setWriting] = useState<"fixed" | "not_fixed" | null>(null);
  const [note, setNote] = useState("");
  const noteId = useId();
  const answer = item.confirmation?.current ? item.confirmation : null;

  if (answer?.outcome === "fixed") {
    return <p className="mt-2 text-xs font-medium text-emerald-800">You confirmed this fixed it.</p>;
  }
  if (!item.resolved) return null;

  function send(event: FormEvent) {
    event.preventDefault();
    if (writing) confirm.mutate({ id: item.id, outcome: writing, note });
  }

  return (
    <div className="mt-2">
      {writing ? (
        <form onSubmit={send} aria-label={writing === "fixed" ? "Fixed" : "Not fixed"} className="space-y-2">
          <label htmlFor={noteId} className="block text-xs font-medium text-zinc-700">
            {writing === "fixed"
              ? "Anything the owner should know? (optional) The owner reads this."
              : "What still fails? The owner reads this, and the item opens again."}
          </label>
          <textarea
            id={noteId}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={RESOLVE_MESSAGE_MAX}
            rows={2}
            // biome-ignore lint/a11y/noAutofocus: the form opens on a press that asks to write this note.
            autoFocus
            className="w-full rounded-lg border border-zinc-300 bg-white px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" busy={confirm.isPending}>
              {writing === "fixed" ? "Confirm: fixed" : "Reopen: not fixed"}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setWriting(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-xs text-zinc-700">Did this fix it?</span>
          <Button
            size="sm"
            variant="secondary"
            busy={confirm.isPending}
            onClick={() => confirm.mutate({ id: item.id, outcome: "fixed", note: "" })}
          >
            Fixed
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setWriting("fixed")}>
            Fixed, with a note
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setWriting("not_fixed")}>
            Not fixed
          </Button>
        </div>
      )}
      {confirm.isError ? (
        <div className="mt-2">
          <Notice tone="error">{explainError(confirm.error, "save")}</Notice>
        </div>
      ) : null}
    </div>
  );
}
