import type { ReactNode } from "react";

/** A titled card around a chart and its table; the chart keeps a fixed height and the page's width. */
export function ChartFrame({
  title,
  description,
  testId,
  children,
}: {
  title: string;
  description: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className="min-w-0 rounded-xl border border-zinc-200 bg-white p-4 sm:p-5" data-testid={testId}>
      <h2 className="font-medium">{title}</h2>
      <p className="mt-0.5 text-sm text-zinc-500">{description}</p>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Series colours, matching the type badges (rose, violet, sky) and the inbox's accents. */
export const COLORS = {
  bug: "#f43f5e",
  feature: "#8b5cf6",
  feedback: "#0ea5e9",
  created: "#6366f1",
  resolved: "#10b981",
} as const;

/** Axis and grid styling shared by the charts: small, quiet, legible on a phone. */
export const AXIS = { fontSize: 12, fill: "#71717a" } as const;
