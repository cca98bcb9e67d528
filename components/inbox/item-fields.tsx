import type { ReactNode } from "react";
import type { FeedbackRecord } from "@/lib/api-client/types";
import { formatCount } from "../format";
import { DataTree, parseMaybeJson } from "./data-tree";

/** A titled block of the item view. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-6">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** A target's value as a link only when it is an http(s) URL; anything else stays text. */
export function TargetValue({ value }: { value: string }) {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  if (url && (url.protocol === "http:" || url.protocol === "https:")) {
    return (
      <a
        href={url.href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="break-all text-indigo-700 underline underline-offset-2"
      >
        {value}
      </a>
    );
  }
  return <span className="break-all">{value}</span>;
}

/** Steps as a numbered list; expected and actual side by side. */
export function Reproduction({ item }: { item: FeedbackRecord }) {
  return (
    <>
      {item.steps?.length ? (
        <Section title="Steps">
          <ol className="list-decimal space-y-1 pl-5 text-sm text-zinc-800 marker:text-zinc-500">
            {item.steps.map((step, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are an ordered list that never reorders
              <li key={i} className="break-words whitespace-pre-wrap">
                {step}
              </li>
            ))}
          </ol>
        </Section>
      ) : null}
      {item.expected !== null || item.actual !== null ? (
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          {(
            [
              ["Expected", item.expected, "border-emerald-200 bg-emerald-50/50"],
              ["Actual", item.actual, "border-rose-200 bg-rose-50/50"],
            ] as const
          ).map(([label, text, tone]) => (
            <div key={label} className={`rounded-lg border p-3 ${tone}`}>
              <p className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">{label}</p>
              <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-800">
                {text ?? <span className="text-zinc-500">Not given</span>}
              </p>
            </div>
          ))}
        </div>
      ) : null}
    </>
  );
}

/** Context and metadata, readable and collapsible. */
export function Attachments({ item }: { item: FeedbackRecord }) {
  const context = item.context ? parseMaybeJson(item.context) : null;
  return (
    <>
      {item.context ? (
        <Section title="Context">
          <details className="group rounded-lg border border-zinc-200">
            <summary className="cursor-pointer px-3 py-2 text-sm text-zinc-600 select-none hover:bg-zinc-50">
              {context?.json ? "JSON" : "Text"} · {formatCount([...item.context].length)} characters
            </summary>
            <div className="border-t border-zinc-200 p-2">
              {context?.json ? (
                <DataTree value={context.value} />
              ) : (
                <pre className="max-h-96 overflow-auto rounded-lg bg-zinc-50 p-3 text-xs break-words whitespace-pre-wrap">
                  {item.context}
                </pre>
              )}
            </div>
          </details>
        </Section>
      ) : null}
      {item.metadata ? (
        <Section title="Metadata">
          <DataTree value={item.metadata} />
        </Section>
      ) : null}
    </>
  );
}
