import type { ReactNode } from "react";
import type { FeedbackStatus } from "@/lib/api-client/types";

const TONES = {
  zinc: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  rose: "bg-rose-50 text-rose-700 ring-rose-200",
  violet: "bg-violet-50 text-violet-700 ring-violet-200",
  sky: "bg-sky-50 text-sky-700 ring-sky-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  orange: "bg-orange-50 text-orange-700 ring-orange-200",
  red: "bg-red-600 text-white ring-red-600",
  green: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-200",
} as const;

export type Tone = keyof typeof TONES;

export function Badge({ tone = "zinc", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const TYPE_TONES: Record<string, Tone> = { bug: "rose", feature: "violet", feedback: "sky" };
const SEVERITY_TONES: Record<string, Tone> = {
  low: "zinc",
  medium: "amber",
  high: "orange",
  critical: "red",
};

/** A feedback item's type: bug, feature or feedback. */
export function TypeBadge({ type }: { type: string }) {
  return <Badge tone={TYPE_TONES[type] ?? "zinc"}>{type}</Badge>;
}

/** A feedback item's severity, louder as it rises. */
export function SeverityBadge({ severity }: { severity: string | null }) {
  if (!severity) return null;
  return <Badge tone={SEVERITY_TONES[severity] ?? "zinc"}>{severity}</Badge>;
}

/** Each triage status as people read it. */
export const STATUS_LABELS: Record<FeedbackStatus, string> = {
  open: "Open",
  acknowledged: "Acknowledged",
  needs_info: "Needs info",
  in_progress: "In progress",
  wont_fix: "Won't fix",
  duplicate: "Duplicate",
  spam: "Spam",
  resolved: "Resolved",
};
const STATUS_TONES: Record<FeedbackStatus, Tone> = {
  open: "indigo",
  acknowledged: "sky",
  needs_info: "amber",
  in_progress: "violet",
  wont_fix: "zinc",
  duplicate: "zinc",
  spam: "zinc",
  resolved: "green",
};

/** An item's triage status. */
export function StatusBadge({ status }: { status: FeedbackStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/**
 * The submitter's answer to the item's resolution, while it stands: "Confirmed fixed" on a resolved item,
 * "Disputed" on an item its submitter reopened as not fixed. Nothing otherwise.
 */
export function ConfirmationBadge({
  confirmation,
}: {
  confirmation: { outcome: "fixed" | "not_fixed"; current: boolean } | null | undefined;
}) {
  if (!confirmation?.current) return null;
  return confirmation.outcome === "fixed" ? (
    <Badge tone="green">Confirmed fixed</Badge>
  ) : (
    <Badge tone="rose">Disputed</Badge>
  );
}
