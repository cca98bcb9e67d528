import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { LocalTime } from "@/components/ui/local-time";
import { explainError } from "@/lib/api-client/explain";
import { useMerge } from "@/lib/api-client/hooks/use-triage";
import type { Moved } from "@/lib/api-client/merge-undo";
import type { InboxItem } from "@/lib/api-client/types";

/** What a merge did, for its notice and its undo. */
export type MergeDone = { head: string; title: string; reports: number; moved: Moved[] };

type Props = {
  owner: string;
  namespace: string;
  picked: InboxItem[];
  onClose: () => void;
  onMerged: (done: MergeDone) => void;
};

const reportsOf = (item: InboxItem) => item.groupReports ?? item.reportCount;

/**
 * Asks before merging the picked rows into one group of duplicates, and which of them leads it: the lead stays
 * in the list with its title, the others (with the reports already grouped under them) go under it. Offered
 * first: the row with the most reports, then the oldest.
 */
export function MergeDialog({ owner, namespace, picked, onClose, onMerged }: Props) {
  const merge = useMerge(owner, namespace);
  const name = useId();
  const [lead, setLead] = useState(
    () =>
      [...picked].sort((a, b) => reportsOf(b) - reportsOf(a) || a.createdAt.localeCompare(b.createdAt))[0]
        ?.id ?? "",
  );
  const total = picked.reduce((n, item) => n + reportsOf(item), 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const head = picked.find((item) => item.id === lead);
    if (!head) return;
    merge.mutate(
      { into: lead, ids: picked.map((item) => item.id).filter((id) => id !== lead) },
      {
        onSuccess: (result) =>
          onMerged({
            head: result.groupId,
            title: head.title,
            reports: result.reportCount,
            moved: result.moved,
          }),
      },
    );
  };
  return (
    <Dialog open onClose={onClose} title={`Merge ${picked.length} rows as duplicates`}>
      <form onSubmit={submit} className="flex flex-col gap-4 text-sm">
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-2 text-zinc-700">
            The {total} reports become one group. Which report leads it? The lead stays in the list under its
            own title; reporters are not told.
          </legend>
          {picked.map((item, i) => (
            <label
              key={item.id}
              className="flex cursor-pointer items-start gap-2 rounded-lg p-2 hover:bg-zinc-50 has-[:checked]:bg-indigo-50"
            >
              <input
                type="radio"
                name={name}
                value={item.id}
                checked={lead === item.id}
                onChange={() => setLead(item.id)}
                data-autofocus={lead === item.id || (i === 0 && !lead) ? "" : undefined}
                className="mt-0.5 size-4 accent-indigo-600"
              />
              <span className="min-w-0">
                <span className="block font-medium break-words text-zinc-900">{item.title}</span>
                <span className="text-xs text-zinc-600">
                  {reportsOf(item) === 1 ? "1 report" : `${reportsOf(item)} reports`} · filed{" "}
                  <LocalTime iso={item.createdAt} relative />
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        {merge.error ? (
          <p role="alert" className="text-red-700">
            {explainError(merge.error, "save")}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={merge.isPending}>
            Merge under the lead
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
