import type { ReactNode } from "react";
import { AlertIcon, SpinnerIcon } from "./icons";

/** A quiet placeholder while something loads; announced to screen readers. */
export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-12 text-sm text-zinc-500">
      <SpinnerIcon className="size-4" />
      {label}
    </div>
  );
}

/** Grey bars in the shape of rows, while a list loads. */
export function SkeletonRows({ rows = 6 }: { rows?: number }) {
  return (
    <ul aria-hidden="true" className="divide-y divide-zinc-100">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <li key={i} className="flex animate-pulse flex-col gap-2 px-4 py-3">
          <div className="h-3.5 w-2/3 rounded bg-zinc-200" />
          <div className="h-3 w-1/2 rounded bg-zinc-100" />
        </li>
      ))}
    </ul>
  );
}

/** Nothing to show yet, and what to do about it. */
export function EmptyState({
  title,
  children,
  icon,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center">
      {icon ? <div className="mb-3 text-3xl text-zinc-300">{icon}</div> : null}
      <p className="font-medium text-zinc-800">{title}</p>
      {children ? <div className="mt-1 max-w-sm text-sm text-zinc-500">{children}</div> : null}
    </div>
  );
}

/** Something failed: says what in plain words and offers a retry. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="m-4 flex items-start gap-3 rounded-lg bg-red-50 p-4 text-sm text-red-800">
      <AlertIcon className="mt-0.5 size-4 shrink-0" />
      <div className="flex-1">
        <p>{message}</p>
        {onRetry ? (
          <button type="button" onClick={onRetry} className="mt-2 font-medium underline underline-offset-2">
            Try again
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** An inline message under a form: an error (alert) or a success (status). */
export function Notice({ tone, children }: { tone: "error" | "success"; children: ReactNode }) {
  const classes = tone === "error" ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-800";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-lg p-3 text-sm ${classes}`}>
      {children}
    </div>
  );
}
