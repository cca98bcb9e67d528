"use client";

import { type FormEvent, useId, useState } from "react";
import { shortAddress } from "@/components/format";
import { BackToInbox } from "@/components/layout/back-to-inbox";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { ErrorState, Loading, Notice } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import type { MemberRoleName } from "@/lib/api-client/fetchers/members";
import { useChangeMembers, useMembers } from "@/lib/api-client/hooks/use-members";
import { useNamespaceAccess } from "@/lib/api-client/hooks/use-namespaces";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { TransferSection } from "./transfer-section";

const ROLE_WORDS: Record<MemberRoleName, string> = {
  viewer: "Viewer: reads the inbox",
  triager: "Triager: also triages, labels, merges and resolves without a tip",
  admin: "Admin: also tips, publishes known issues, manages webhooks and adds viewers and triagers",
};
const ROLES = Object.keys(ROLE_WORDS) as MemberRoleName[];

/**
 * The namespace's team: its owner, each member with its role, and a transfer. Every member reads it; the
 * controls a role may not use are disabled with the reason (the service refuses them all the same).
 */
export function MembersSettings({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const me = session?.address ?? "";
  const access = useNamespaceAccess(me, namespace);
  const team = useMembers(me, namespace);
  const change = useChangeMembers(me, namespace);
  const [removing, setRemoving] = useState<string | null>(null);
  const role = access.data && "role" in access.data ? access.data.role : null;
  const mayManage = role === "owner" || role === "admin";
  // Admins are the owner's to add, change or remove.
  const mayTouch = (r: MemberRoleName) => role === "owner" || (role === "admin" && r !== "admin");

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-6 sm:px-6">
      <div className="flex items-center gap-2">
        <BackToInbox namespace={namespace} />
        <h1 className="text-lg font-semibold tracking-tight">
          <span className="font-mono">{namespace}</span> · Members
        </h1>
      </div>
      {team.isPending || access.isPending ? (
        <Loading />
      ) : team.isError ? (
        <ErrorState
          message={explainError(team.error, "load")}
          onRetry={isRetryable(team.error) ? () => team.refetch() : undefined}
        />
      ) : (
        <>
          <section className="space-y-1 rounded-xl border border-zinc-200 bg-white p-5 text-sm text-zinc-700">
            <p>
              Owner: <span className="font-mono">{shortAddress(team.data.owner)}</span>
              {role === "owner" ? " (you)" : ""}. Members act in this inbox by their role; reporters never see
              who of the team acted.
            </p>
            {role && role !== "owner" ? (
              <p>
                You are {role === "admin" ? "an" : "a"} {role} here.
              </p>
            ) : null}
          </section>
          <section className="space-y-3">
            <h2 className="font-medium">Members ({team.data.members.length})</h2>
            {team.data.members.length === 0 ? (
              <p className="text-sm text-zinc-600">No members yet: only the owner reads this inbox.</p>
            ) : (
              <ul
                aria-label="Members"
                className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white"
              >
                {team.data.members.map((m) => (
                  <li key={m.wallet} className="flex flex-wrap items-center gap-2 px-4 py-3">
                    <span className="min-w-0 flex-1 font-mono text-sm break-all">{m.wallet}</span>
                    <label className="sr-only" htmlFor={`role-${m.wallet}`}>
                      Role of {m.wallet}
                    </label>
                    <select
                      id={`role-${m.wallet}`}
                      value={m.role}
                      disabled={!mayTouch(m.role) || change.isPending}
                      title={mayTouch(m.role) ? undefined : "Only the owner changes an admin's role"}
                      onChange={(e) =>
                        change.mutate({
                          kind: "put",
                          wallet: m.wallet,
                          role: e.target.value as MemberRoleName,
                        })
                      }
                      className="h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm"
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r} disabled={r === "admin" && role !== "owner"}>
                          {r}
                        </option>
                      ))}
                    </select>
                    <span className="text-xs text-zinc-500">
                      added <LocalTime iso={m.addedAt} relative />
                    </span>
                    {removing === m.wallet ? (
                      <span className="flex items-center gap-1">
                        <Button
                          size="sm"
                          variant="danger"
                          busy={change.isPending}
                          onClick={() =>
                            change.mutate(
                              { kind: "remove", wallet: m.wallet },
                              { onSuccess: () => setRemoving(null) },
                            )
                          }
                        >
                          Remove {shortAddress(m.wallet)}
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => setRemoving(null)}>
                          Keep
                        </Button>
                      </span>
                    ) : (
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={!mayTouch(m.role) && m.wallet.toLowerCase() !== me.toLowerCase()}
                        aria-label={`Remove ${m.wallet}`}
                        onClick={() => setRemoving(m.wallet)}
                      >
                        {m.wallet.toLowerCase() === me.toLowerCase() ? "Leave" : "Remove"}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {change.isError ? <Notice tone="error">{explainError(change.error, "save")}</Notice> : null}
          </section>
          {mayManage ? (
            <AddMember namespace={namespace} me={me} owner={role === "owner"} />
          ) : (
            <p className="text-sm text-zinc-600">Only the owner and admins add members.</p>
          )}
          {role === "owner" ? (
            <TransferSection namespace={namespace} me={me} pending={team.data.pendingTransfer} />
          ) : (
            <p className="text-sm text-zinc-600">Only the owner can hand this namespace to another wallet.</p>
          )}
        </>
      )}
    </div>
  );
}

/** Adds a wallet with a role (admins only by the owner). */
function AddMember({ namespace, me, owner }: { namespace: string; me: string; owner: boolean }) {
  const change = useChangeMembers(me, namespace);
  const [wallet, setWallet] = useState("");
  const [role, setRole] = useState<MemberRoleName>("triager");
  const walletId = useId();
  const roleId = useId();
  const field = change.error && "fields" in change.error ? (change.error.fields as { field: string }[]) : [];
  function submit(event: FormEvent) {
    event.preventDefault();
    change.mutate({ kind: "put", wallet: wallet.trim(), role }, { onSuccess: () => setWallet("") });
  }
  return (
    <form
      onSubmit={submit}
      aria-label="Add a member"
      className="space-y-3 rounded-xl border border-zinc-200 bg-white p-5"
    >
      <h2 className="font-medium">Add a member</h2>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={walletId} className="block text-sm font-medium">
            Wallet address
          </label>
          <input
            id={walletId}
            value={wallet}
            onChange={(e) => setWallet(e.target.value)}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={field.some((f) => f.field === "wallet") || undefined}
            className="mt-1 h-9 w-full rounded-lg border border-zinc-300 px-3 font-mono text-sm"
          />
        </div>
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium">
            Role
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(e) => setRole(e.target.value as MemberRoleName)}
            className="mt-1 h-9 rounded-lg border border-zinc-300 bg-white px-2 text-sm"
          >
            {ROLES.filter((r) => owner || r !== "admin").map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" busy={change.isPending} disabled={wallet.trim() === ""}>
          Add member
        </Button>
      </div>
      <p className="text-xs text-zinc-600">{ROLE_WORDS[role]}.</p>
      {change.isError ? <Notice tone="error">{explainError(change.error, "save")}</Notice> : null}
      {change.isSuccess ? (
        <Notice tone="success">Added. The wallet signs in at this dashboard to act.</Notice>
      ) : null}
    </form>
  );
}
