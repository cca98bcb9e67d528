import { type ReactNode, useEffect, useId, useRef } from "react";
import { XIcon } from "./icons";

/**
 * A modal on the native <dialog>: the browser traps focus, Escape closes it, and the page behind
 * is inert. Focus starts on the control marked `data-autofocus`, if any. `onClose` runs however it closes;
 * focus goes back to what opened it, even when the parent unmounts it.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // The field to type in first, when the dialog names one; otherwise the browser's choice (its first control).
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // A parent that unmounts an open dialog skips the browser's own return of focus: focus would
      // fall to the page's start, so give it back to what opened the dialog.
      const now = document.activeElement;
      if (opener?.isConnected && (!now || now === document.body || dialog.contains(now))) opener.focus();
    };
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      // A close event is queued, not run, when the dialog closes: React's development double run of effects
      // closes and reopens it at once, and its stale event arrives while it is open again. Only a dialog that
      // is still closed when the event runs has closed.
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-900/40 backdrop:backdrop-blur-sm"
    >
      {open ? (
        <div className="p-5 sm:p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
            >
              <XIcon className="size-5" />
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
