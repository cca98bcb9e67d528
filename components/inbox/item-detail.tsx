import { useEffect, useState } from "react";
import { ConfirmationBadge, SeverityBadge, StatusBadge, TypeBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { ArrowLeftIcon, CheckIcon } from "@/components/ui/icons";
import { LocalTime } from "@/components/ui/local-time";
import { ErrorState, Loading } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useFeedbackItem } from "@/lib/api-client/hooks/use-inbox";
import { useRole } from "@/lib/api-client/hooks/use-role";
import { usdLabel } from "@/lib/api-client/money";
import type { FeedbackRecord, InboxItem } from "@/lib/api-client/types";
import { shortAddress } from "../format";
import { Attachments, Reproduction, Section, TargetValue } from "./item-fields";
import { ItemGroup } from "./item-group";
import { ItemHistory } from "./item-history";
import { LabelEditor } from "./labels";
import { RecordTable } from "./record-table";
import { ResolveDialog } from "./resolve-dialog";
import { TriagePanel } from "./triage-panel";

type Props = { owner: string; namespace: string; id: string; fromList?: InboxItem; onBack: () => void };

/** An item's full view: every field of the record, readable, and the resolve action. */
export function ItemDetail({ owner, namespace, id, fromList, onBack }: Props) {
  const query = useFeedbackItem(owner, id, fromList);
  const [resolving, setResolving] = useState(false);
  // A link may name an item of another namespace (one this wallet owns or submitted to): it is not this
  // inbox's, so it is not shown or acted on here.
  const elsewhere = query.data !== undefined && query.data.namespace !== namespace;
  const item = elsewhere ? undefined : query.data;
  // A viewer reads; resolving is a triager's, an admin's or the owner's (the service refuses it all the same).
  const mayTriage = useRole(namespace).may("triage");
  const resolvable = Boolean(item && !item.resolved && mayTriage);
  // "r" resolves the open item: its dialog opens, as the Resolve button does.
  useEffect(() => {
    if (!resolvable) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== "r" || event.metaKey || event.ctrlKey || event.altKey) return;
      if (target.closest("input, textarea, select, dialog, [contenteditable]")) return;
      event.preventDefault();
      setResolving(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [resolvable]);

  return (
    <article aria-labelledby="item-title" className="px-4 py-5 sm:px-8">
      <div className="flex items-center justify-between gap-3">
        <Button variant="ghost" size="sm" onClick={onBack} className="-ml-2 lg:hidden">
          <ArrowLeftIcon className="size-4" /> Back
        </Button>
        <span className="hidden font-mono text-xs text-zinc-500 lg:inline">{id}</span>
        {resolvable ? (
          <Button size="sm" onClick={() => setResolving(true)}>
            <CheckIcon className="size-4" /> Resolve
          </Button>
        ) : null}
      </div>
      {elsewhere || (query.isError && !item && !isRetryable(query.error)) ? (
        <NotHere namespace={namespace} id={id} onBack={onBack} />
      ) : query.isError && !item ? (
        <ErrorState message={explainError(query.error, "load")} onRetry={() => query.refetch()} />
      ) : !item ? (
        <Loading label="Loading the item…" />
      ) : (
        <Body owner={owner} namespace={namespace} item={item} />
      )}
      {item && resolving ? (
        <ResolveDialog owner={owner} namespace={namespace} item={item} onClose={() => setResolving(false)} />
      ) : null}
    </article>
  );
}

/** A link to an item this inbox does not hold: another namespace's, or one that does not exist. Asking again cannot help. */
function NotHere({ namespace, id, onBack }: { namespace: string; id: string; onBack: () => void }) {
  return (
    <div role="alert" className="mt-6 rounded-xl border border-zinc-200 bg-zinc-50 p-5 text-sm text-zinc-700">
      <h2 className="font-semibold text-zinc-900">This item is not in {namespace}</h2>
      <p className="mt-1 break-words">
        No item <span className="font-mono">{id}</span> is in this inbox: the link names another
        namespace&rsquo;s item, or one that does not exist.
      </p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onBack}>
        Back to the inbox
      </Button>
    </div>
  );
}

function Body({ owner, namespace, item }: { owner: string; namespace: string; item: FeedbackRecord }) {
  const mayTriage = useRole(namespace).may("triage");
  return (
    <>
      <h2 id="item-title" className="mt-3 text-xl font-semibold tracking-tight break-words text-zinc-900">
        {item.title}
      </h2>
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        <TypeBadge type={item.type} />
        <SeverityBadge severity={item.severity} />
        <StatusBadge status={item.status} />
        <ConfirmationBadge confirmation={item.confirmation} />
        {item.verified ? (
          <span className="text-xs font-medium text-emerald-700">✓ verified submitter</span>
        ) : null}
      </div>
      <p className="mt-2 flex flex-wrap items-center gap-x-1 text-xs text-zinc-500">
        Submitted <LocalTime iso={item.createdAt} /> by
        <span className="font-mono text-zinc-700" title={item.submitterWallet ?? undefined}>
          {shortAddress(item.submitterWallet)}
        </span>
        {item.submitterWallet ? <CopyButton text={item.submitterWallet} label="Copy address" /> : null}
      </p>
      {item.resolved ? <Resolution item={item} /> : null}
      {mayTriage ? (
        <>
          <TriagePanel key={item.status} owner={owner} namespace={namespace} item={item} />
          <Section title="Labels">
            <LabelEditor owner={owner} namespace={namespace} ids={[item.id]} labels={item.labels} />
          </Section>
        </>
      ) : (
        <>
          <p className="mt-4 rounded-lg bg-zinc-50 p-3 text-sm text-zinc-700">
            You are a viewer of this namespace: you read its inbox. Triage and resolving are for its triagers,
            admins and owner.
          </p>
          <Section title="Labels">
            <p className="text-sm text-zinc-700">{item.labels?.length ? item.labels.join(", ") : "None"}</p>
          </Section>
        </>
      )}
      <Section title="Description">
        <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-zinc-800">
          {item.description}
        </p>
      </Section>
      <Reproduction item={item} />
      <Attachments item={item} />
      {item.targets.length ? (
        <Section title="Targets">
          <ul className="space-y-1 text-sm">
            {item.targets.map((t) => (
              <li key={`${t.kind}:${t.value}`} className="flex gap-2">
                <span className="text-zinc-500">{t.kind}</span>
                <TargetValue value={t.value} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {item.group?.length ? (
        <Section title={`Duplicates · ${item.group.length + 1} reports`}>
          <ItemGroup owner={owner} namespace={namespace} item={item} />
        </Section>
      ) : null}
      {item.history.length ? (
        <Section title="History">
          <ItemHistory history={item.history} />
        </Section>
      ) : null}
      <Section title="All fields">
        <RecordTable item={item} />
      </Section>
    </>
  );
}

function Resolution({ item }: { item: FeedbackRecord }) {
  return (
    <section
      aria-label="Resolution"
      className="mt-4 rounded-xl border border-emerald-200 bg-emerald-50/60 p-4 text-sm"
    >
      <p className="font-medium text-emerald-900">
        Resolved <LocalTime iso={item.resolvedAt} /> by{" "}
        <span className="font-mono">{shortAddress(item.resolvedBy)}</span>
      </p>
      {item.resolveMessage ? (
        <p className="mt-2 break-words whitespace-pre-wrap text-emerald-950">{item.resolveMessage}</p>
      ) : null}
      {item.rewardAmount ? (
        <div className="mt-3 border-t border-emerald-200 pt-3">
          <p>
            Tip paid: <span className="font-semibold">{usdLabel(item.rewardAmount)}</span>
          </p>
          {item.rewardTxHash ? (
            <p
              className="mt-1 flex flex-wrap items-center gap-1 font-mono text-xs break-all"
              data-testid="reward-tx"
            >
              {item.rewardTxHash}
              <CopyButton text={item.rewardTxHash} label="Copy hash" />
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
