import { CopyButton } from "@/components/ui/copy-button";

/** A code sample with a copy button. */
export function Snippet({ code, label }: { code: string; label: string }) {
  return (
    <figure className="overflow-hidden rounded-xl bg-zinc-950 shadow-lg ring-1 ring-zinc-800">
      <figcaption className="flex items-center justify-between border-b border-zinc-800 px-4 py-2">
        <span className="font-mono text-xs text-zinc-400">{label}</span>
        <CopyButton
          text={code}
          label="Copy snippet"
          className="text-zinc-400 hover:bg-zinc-800 hover:text-white"
        />
      </figcaption>
      <pre className="overflow-x-auto p-4 text-[13px] leading-relaxed text-zinc-100">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
