"use client";

import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * A credential on screen: masked until revealed (and hidden again on request), copyable without
 * being shown. `label` names it for screen readers ("Reveal secret"); `children` adds actions.
 */
export function MaskedValue({
  value,
  masked,
  label,
  testId,
  children,
}: {
  value: string;
  masked: string;
  label: string;
  testId?: string;
  children?: ReactNode;
}) {
  const [shown, setShown] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code
        className={`w-full min-w-0 rounded-lg sm:w-auto sm:flex-1 bg-zinc-100 px-3 py-2 font-mono text-sm ${shown ? "break-all" : "truncate"}`}
        data-testid={testId}
      >
        {shown ? value : masked}
      </code>
      <Button
        variant="secondary"
        size="sm"
        aria-label={`${shown ? "Hide" : "Reveal"} ${label}`}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? "Hide" : "Reveal"}
      </Button>
      <CopyButton text={value} label={`Copy ${label}`} />
      {children}
    </div>
  );
}
