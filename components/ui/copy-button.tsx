"use client";

import { useState } from "react";
import { CheckIcon, CopyIcon } from "./icons";

/** Copies `text` to the clipboard and says so. */
export function CopyButton({
  text,
  label = "Copy",
  className = "",
  onDark = false,
}: {
  text: string;
  label?: string;
  className?: string;
  /** On a dark surface: a lighter grey, which keeps 4.5:1 there. */
  onDark?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={copied ? "Copied" : label}
      title={copied ? "Copied" : label}
      className={`inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-xs focus-visible:outline-2 focus-visible:outline-indigo-600 ${
        onDark
          ? "text-zinc-400 hover:bg-zinc-800 hover:text-white"
          : "text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
      } ${className}`}
    >
      {copied ? <CheckIcon className="size-3.5 text-emerald-600" /> : <CopyIcon className="size-3.5" />}
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  );
}
