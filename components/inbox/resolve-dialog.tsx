import { type FormEvent, useId, useState } from "react";
import { useConnection } from "wagmi";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/states";
import { useClientConfig } from "@/lib/api-client/config";
import { explainError } from "@/lib/api-client/explain";
import { RESOLVE_MESSAGE_MAX } from "@/lib/api-client/form-schemas";
import { useResolveFeedback } from "@/lib/api-client/hooks/use-resolve";
import { useRole } from "@/lib/api-client/hooks/use-role";
import { usdLabel } from "@/lib/api-client/money";
import type { FeedbackRecord } from "@/lib/api-client/types";
import { formatUsdForPeople, parseUsd } from "@/lib/money";
import { shortAddress } from "../format";
import { GroupKindBadge } from "./item-group";

const MESSAGE_LIMIT = RESOLVE_MESSAGE_MAX;
const PRESETS = ["0", "0.1", "0.5", "1", "2"] as const;

type Props = { owner: string; namespace: string; item: FeedbackRecord; onClose: () => void };

/** Resolve with a message and an optional tip; the tip's price is shown before the wallet pays it. */
export function ResolveDialog({ owner, namespace, item, onClose }: Props) {
  const config = useClientConfig();
  const connection = useConnection();
  const resolve = useResolveFeedback(owner, namespace);
  // A tip is paid by the owner or an admin; a triager resolves without one.
  const mayTip = useRole(namespace).may("reward");
  const [message, setMessage] = useState("");
  const [publicNote, setPublicNote] = useState("");
  const [tip, setTip] = useState("0");
  const head = item.groupId ?? item.id;
  const open = (item.group ?? []).filter((g) => g.status !== "resolved");
  // Resolving an issue resolves the reports that said "me too" of it, with the public note, never the message.
  const meToos = item.id === head ? open.filter((g) => g.meToo) : [];
  // The rest of its group changes only if the owner ticks it here; merged reports start ticked.
  const others = open.filter((g) => !meToos.includes(g));
  const [also, setAlso] = useState(
    () => new Set(others.filter((g) => g.id !== head && g.groupKind === "merged").map((g) => g.id)),
  );
  const toggle = (id: string) =>
    setAlso((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const tipId = useId();

  const maxMicro = parseUsd(config.prices.maxReward) ?? 0n;
  const tipMicro = tip.trim() === "" ? 0n : parseUsd(tip.trim());
  const tipError =
    tipMicro === null
      ? "Enter an amount in USD, like 0.50."
      : tipMicro > maxMicro
        ? `A tip can be at most ${usdLabel(config.prices.maxReward)}.`
        : null;
  const tooLong = [message, publicNote].some((text) => [...text].length > MESSAGE_LIMIT);
  const tipped = tipMicro !== null && tipMicro > 0n;
  const payer = connection.status === "connected" ? connection.address : undefined;
  const blocked = Boolean(tipError) || tooLong || (tipped && !payer);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (blocked || tipMicro === null) return;
    resolve.mutate(
      {
        id: item.id,
        message,
        publicNote: meToos.length ? publicNote : "",
        rewardMicroUsd: tipMicro,
        alsoResolve: others.filter((g) => also.has(g.id)).map((g) => g.id),
      },
      { onSuccess: onClose },
    );
  }

  // Nothing is said about paying while the amount cannot be paid.
  const price = tipped && tipMicro !== null && !tipError ? `${formatUsdForPeople(tipMicro)} USD` : null;

  return (
    <Dialog open onClose={onClose} title="Resolve this item">
      <form onSubmit={submit} noValidate>
        <p className="line-clamp-2 text-sm text-zinc-600">{item.title}</p>
        <OptionalText
          label="Message to the submitter"
          hint={`Only ${shortAddress(item.submitterWallet)}, who filed this report, reads it${others.length ? ", and the reports you tick below" : ""}.`}
          value={message}
          onChange={setMessage}
          rows={4}
          placeholder="Thanks — fixed in today's release."
          first
        />
        {meToos.length ? (
          <OptionalText
            label="Public note"
            hint={`${meToos.length} ${meToos.length === 1 ? "reporter" : "reporters"} said “me too”: they are resolved with this report and read this note, never your message above. Your published known issues show it too.`}
            value={publicNote}
            onChange={setPublicNote}
            rows={2}
            placeholder="Fixed in version 3.2."
          />
        ) : null}
        {others.length ? (
          <fieldset className="mt-2">
            <legend className="text-sm font-medium">
              Also resolve with this message{" "}
              <span className="font-normal text-zinc-600">(no tip; only the ones you tick)</span>
            </legend>
            <ul className="mt-1 max-h-48 space-y-1 overflow-y-auto rounded-lg border border-zinc-200 p-2">
              {others.map((g) => (
                <li key={g.id}>
                  <label className="flex items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-1"
                      checked={also.has(g.id)}
                      onChange={() => toggle(g.id)}
                    />
                    <span className="min-w-0 flex-1 break-words">{g.title}</span>
                    <GroupKindBadge kind={g.id === head ? null : g.groupKind} />
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
        {mayTip ? null : (
          <p className="mt-2 text-sm text-zinc-700">
            No tip: only the owner and admins tip a reporter. You resolve it without one.
          </p>
        )}
        <div hidden={!mayTip}>
          <label htmlFor={tipId} className="mt-2 block text-sm font-medium">
            Tip{" "}
            <span className="font-normal text-zinc-500">
              (0 to {usdLabel(config.prices.maxReward)}, in USDC)
            </span>
          </label>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <div className="relative">
              <input
                id={tipId}
                value={tip}
                onChange={(e) => setTip(e.target.value)}
                inputMode="decimal"
                autoComplete="off"
                aria-invalid={tipError ? true : undefined}
                aria-describedby={`${tipId}-error`}
                className="h-9 w-28 rounded-lg border border-zinc-300 pr-11 pl-3 text-sm tabular-nums focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
              />
              <span className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-xs text-zinc-500">
                USD
              </span>
            </div>
            {/* The presets move as one row (never one left alone on a line); the unit is the field's. */}
            <fieldset className="flex gap-1.5">
              <legend className="sr-only">Tip presets</legend>
              {PRESETS.map((preset) => (
                <button
                  key={preset}
                  type="button"
                  onClick={() => setTip(preset)}
                  aria-label={preset === "0" ? undefined : `${usdLabel(preset)} tip`}
                  className="h-7 rounded-md px-2 text-xs font-medium text-zinc-600 tabular-nums ring-1 ring-zinc-200 ring-inset hover:bg-zinc-50"
                >
                  {preset === "0" ? "No tip" : usdLabel(preset).replace(/ USD$/, "")}
                </button>
              ))}
            </fieldset>
          </div>
          <p id={`${tipId}-error`} className="mt-1 text-xs text-red-700">
            {tipError}
          </p>
        </div>
        <div className="mt-3 rounded-lg bg-zinc-50 p-3 text-sm">
          {price ? (
            <>
              <div className="flex justify-between">
                <span className="text-zinc-600">You pay</span>
                <span className="font-semibold tabular-nums">{price}</span>
              </div>
              <p className="mt-1 text-xs text-zinc-500">
                From {payer ? shortAddress(payer) : "your wallet (connect it first)"} to the submitter{" "}
                {shortAddress(item.submitterWallet)}. Your wallet asks you to approve exactly this amount.
              </p>
            </>
          ) : tipError ? (
            <p className="text-zinc-600">Correct the tip to see what you pay.</p>
          ) : (
            <p className="text-zinc-600">No tip: resolving is free.</p>
          )}
        </div>
        <div className="mt-3" aria-live="polite">
          {resolve.isError ? (
            <Notice tone="error">{explainError(resolve.error, tipped ? "pay" : "save")}</Notice>
          ) : null}
        </div>
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={resolve.isPending} disabled={blocked}>
            {resolve.isPending && tipped
              ? "Confirm in your wallet…"
              : price
                ? `Pay ${price} and resolve`
                : "Resolve"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

type TextProps = {
  label: string;
  /** Who reads what is written here. */
  hint: string;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  placeholder: string;
  /** The field the dialog opens on. */
  first?: boolean;
};

/** An optional text of the resolution, with who reads it and its length against the limit. */
function OptionalText({ label, hint, value, onChange, rows, placeholder, first }: TextProps) {
  const id = useId();
  const length = [...value].length;
  return (
    <>
      <label htmlFor={id} className="mt-3 block text-sm font-medium">
        {label} <span className="font-normal text-zinc-500">(optional)</span>
      </label>
      <p id={`${id}-who`} className="text-xs text-zinc-600">
        {hint}
      </p>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={rows}
        placeholder={placeholder}
        data-autofocus={first ? "" : undefined}
        aria-describedby={`${id}-who ${id}-count`}
        className="mt-1 w-full rounded-lg border border-zinc-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
      />
      <p
        id={`${id}-count`}
        className={`text-right text-xs ${length > MESSAGE_LIMIT ? "text-red-700" : "text-zinc-500"}`}
      >
        {length} / {MESSAGE_LIMIT}
      </p>
    </>
  );
}
