import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { explainError } from "@/lib/api-client/explain";
import { useChangeLabels } from "@/lib/api-client/hooks/use-triage";

/** An owner's label, small and quiet beside the type and severity. */
export function LabelChip({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 ring-1 ring-zinc-200 ring-inset">
      {label}
    </span>
  );
}

type EditorProps = { owner: string; namespace: string; ids: string[]; labels?: string[]; compact?: boolean };

/** Adds a label to items (and, for one item, removes its labels one by one). */
export function LabelEditor({ owner, namespace, ids, labels = [], compact }: EditorProps) {
  const [text, setText] = useState("");
  const change = useChangeLabels(owner, namespace);
  const inputId = useId();
  function add(event: FormEvent) {
    event.preventDefault();
    const label = text.trim();
    if (!label) return;
    change.mutate({ ids, add: [label] }, { onSuccess: () => setText("") });
  }
  return (
    <div className={compact ? "flex items-center gap-1" : ""}>
      {labels.length ? (
        <ul aria-label="Labels" className="mb-2 flex flex-wrap gap-1.5">
          {labels.map((l) => (
            <li
              key={l}
              className="inline-flex items-center gap-1 rounded-full bg-zinc-100 py-0.5 pr-1 pl-2 text-xs text-zinc-700"
            >
              {l}
              <button
                type="button"
                aria-label={`Remove the label ${l}`}
                onClick={() => change.mutate({ ids, remove: [l] })}
                className="rounded-full px-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={add} className="flex items-center gap-1">
        <label htmlFor={inputId} className="sr-only">
          New label
        </label>
        <input
          id={inputId}
          value={text}
          onChange={(e) => setText(e.target.value.replace(/,/g, ""))}
          maxLength={30}
          placeholder="Add a label"
          className="h-8 w-36 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
        />
        <Button type="submit" size="sm" variant="secondary" busy={change.isPending} disabled={!text.trim()}>
          Add
        </Button>
      </form>
      {change.isError ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {explainError(change.error, "save")}
        </p>
      ) : null}
    </div>
  );
}
