"use client";

import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import type { MembersView } from "@/lib/api-client/fetchers/members";
import { useChangeMembers } from "@/lib/api-client/hooks/use-members";

type Props = { namespace: string; me: string; pending: MembersView["pendingTransfer"] };

/** The owner proposes a new owner, confirming the wallet it names, and sees or withdraws the pending one. */
export function TransferSection({ namespace, me, pending }: Props) {
  const change = useChangeMembers(me, namespace);
  const [to, setTo] = useState("");
  const [confirming, setConfirming] = useState(false);
  const toId = useId();
  const acceptUrl = `/dashboard/${encodeURIComponent(namespace)}/accept`;
  function propose(event: FormEvent) {
    event.preventDefault();
    if (!confirming) return setConfirming(true);
    change.mutate(
      { kind: "propose", to: to.trim() },
      {
        onSuccess: () => {
          setTo("");
          setConfirming(false);
        },
        onError: () => setConfirming(false),
      },
    );
  }
  return (
    <section aria-label="Transfer" className="space-y-3 rounded-xl border border-zinc-200 bg-white p-5">
      <h2 className="font-medium">Transfer the namespace</h2>
      {pending ? (
        <div className="space-y-2 text-sm">
          <p>
            Proposed to <span className="font-mono break-all">{pending.to}</span>, until{" "}
            <LocalTime iso={pending.expiresAt} />. It becomes the owner when it signs in and accepts at{" "}
            <span className="font-mono">{acceptUrl}</span>; you then stay as an admin.
          </p>
          <Button
            size="sm"
            variant="secondary"
            busy={change.isPending}
            onClick={() => change.mutate({ kind: "cancel" })}
          >
            Withdraw the transfer
          </Button>
        </div>
      ) : null}
      <form onSubmit={propose} className="space-y-2">
        <label htmlFor={toId} className="block text-sm font-medium">
          New owner's wallet address
        </label>
        <input
          id={toId}
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            setConfirming(false);
          }}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          className="h-9 w-full rounded-lg border border-zinc-300 px-3 font-mono text-sm"
        />
        {confirming ? (
          <p role="alert" className="text-sm text-amber-900">
            Hand <span className="font-mono">{namespace}</span> to{" "}
            <span className="font-mono break-all">{to.trim()}</span>? Once it accepts, it owns the namespace
            and everything in it; you stay as an admin until it removes you.
          </p>
        ) : null}
        <div className="flex gap-2">
          <Button
            type="submit"
            variant={confirming ? "danger" : "secondary"}
            busy={change.isPending}
            disabled={to.trim() === ""}
          >
            {confirming
              ? "Yes, propose the transfer"
              : pending
                ? "Propose another owner"
                : "Propose a transfer"}
          </Button>
          {confirming ? (
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
      {change.isError ? <Notice tone="error">{explainError(change.error, "save")}</Notice> : null}
    </section>
  );
}
