import { Dialog } from "@/components/ui/dialog";

const SHORTCUTS = [
  ["j / k", "Next / previous item"],
  ["Esc", "Close the item"],
  ["x", "Select the open item (shift+x: every item since the last one selected)"],
  ["r", "Resolve the open item"],
  ["/", "Search"],
  ["?", "This list"],
] as const;

/** The inbox's keyboard shortcuts, opened with "?". */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} className="contents">
            <dt>
              <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs">
                {keys}
              </kbd>
            </dt>
            <dd className="text-zinc-700">{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
