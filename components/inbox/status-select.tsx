import { STATUS_LABELS } from "@/components/ui/badge";
import { FEEDBACK_STATUSES } from "@/lib/api-client/inbox-filters";
import type { FeedbackStatus } from "@/lib/api-client/types";

type Props = { id: string; value: FeedbackStatus; onChange: (status: FeedbackStatus) => void };

/** A choice of triage status, labelled as people read it. */
export function StatusSelect({ id, value, onChange }: Props) {
  return (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value as FeedbackStatus)}
      className="h-8 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
    >
      {FEEDBACK_STATUSES.map((s) => (
        <option key={s} value={s}>
          {STATUS_LABELS[s]}
        </option>
      ))}
    </select>
  );
}
