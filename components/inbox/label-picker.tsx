import { useId } from "react";
import type { FeedbackCounts } from "@/lib/api-client/types";

/** The labels in use, most used first, with how many items carry each; a chosen label stands out. */
export function LabelPicker({
  value,
  labels,
  onChange,
}: {
  value: string | undefined;
  labels: FeedbackCounts["labels"] | undefined;
  onChange: (label: string | null) => void;
}) {
  const id = useId();
  const known = labels ?? [];
  // A label from a link may not be in use (any more): it stays selectable so the view can be read.
  const options =
    value && !known.some((l) => l.name === value) ? [{ name: value, count: 0 }, ...known] : known;
  if (options.length === 0) return null;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        Label
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        className={`h-8 max-w-44 rounded-lg border px-2 text-sm ${
          value ? "border-zinc-900 bg-zinc-900 text-white" : "border-zinc-300 bg-white"
        }`}
      >
        <option value="">Any label</option>
        {options.map((l) => (
          <option key={l.name} value={l.name}>
            {l.name} ({l.count})
          </option>
        ))}
      </select>
    </>
  );
}
