import { CopyButton } from "@/components/ui/copy-button";

/** A code sample with a copy button. */
export function Snippet({ code, label }: { code: string; label: string }) {
  return (
    <figure className="overflow-hidden rounded-xl bg-zinc-950 shadow-lg ring-1 ring-zinc-800">
      <figcaption className="flex items-center justify-between border-b border-zinc-800 px-4 py-2">
        <span className="font-mono text-xs text-zinc-400">{label}</span>
        <CopyButton text={code} label="Copy snippet" onDark />
      </figcaption>
      {/* It scrolls sideways on a phone: focusable and named, so a keyboard can reach and scroll it. */}
      {/* biome-ignore lint/a11y/useSemanticElements: the pre itself scrolls; a section around it would not */}
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus for a keyboard to scroll it
        tabIndex={0}
        role="region"
        aria-label={label}
        className="overflow-x-auto p-4 text-[13px] leading-relaxed text-zinc-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-400"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
