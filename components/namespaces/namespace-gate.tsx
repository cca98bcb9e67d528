"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { ErrorState, Loading } from "@/components/ui/states";
import { useClientConfig } from "@/lib/api-client/config";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { registerNamespaceSchema } from "@/lib/api-client/form-schemas";
import { useNamespaceAccess } from "@/lib/api-client/hooks/use-namespaces";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { usdLabel } from "@/lib/api-client/money";

/**
 * Shows a namespace's pages only to its owner. An unregistered name or someone else's is a page that
 * says which, asked before anything of the namespace is read, so no read is refused on the way.
 */
export function NamespaceGate({ namespace, children }: { namespace: string; children: ReactNode }) {
  const { session } = useSession();
  // A name nobody can register is said to be invalid before anything is asked: nothing to register or read.
  const invalid = registerNamespaceSchema.shape.namespace.safeParse(namespace).error?.issues[0]?.message;
  const access = useNamespaceAccess(invalid ? "" : (session?.address ?? ""), namespace);
  if (invalid) return <InvalidName namespace={namespace} rule={invalid} />;
  if (access.isPending) return <Loading />;
  if (access.isError) {
    return (
      <ErrorState
        message={explainError(access.error, "load")}
        onRetry={isRetryable(access.error) ? () => access.refetch() : undefined}
      />
    );
  }
  if (access.data.access === "owner" || access.data.access === "member") return children;
  return <NamespaceProblem namespace={namespace} access={access.data.access} />;
}

function InvalidName({ namespace, rule }: { namespace: string; rule: string }) {
  return (
    <section
      aria-labelledby="namespace-problem"
      className="mx-auto mt-12 w-[calc(100%-2rem)] max-w-md rounded-2xl border border-zinc-200 bg-white p-6 text-center shadow-sm sm:p-8"
    >
      <h1 id="namespace-problem" className="text-lg font-semibold break-words">
        <span className="font-mono">{namespace}</span> is not a valid namespace name
      </h1>
      <p className="mt-2 text-sm text-zinc-600">
        A namespace name {rule}. No namespace can have this one, so there is nothing to read or register here.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link href="/dashboard" className={buttonClass("primary", "md")}>
          Your namespaces
        </Link>
      </div>
    </section>
  );
}

function NamespaceProblem({
  namespace,
  access,
}: {
  namespace: string;
  access: "not-registered" | "not-yours";
}) {
  const config = useClientConfig();
  const free = access === "not-registered";
  return (
    <section
      aria-labelledby="namespace-problem"
      className="mx-auto mt-12 w-[calc(100%-2rem)] max-w-md rounded-2xl border border-zinc-200 bg-white p-6 text-center shadow-sm sm:p-8"
    >
      <h1 id="namespace-problem" className="text-lg font-semibold break-words">
        {free ? (
          <>
            <span className="font-mono">{namespace}</span> is not registered
          </>
        ) : (
          <>
            <span className="font-mono">{namespace}</span> is not yours
          </>
        )}
      </h1>
      <p className="mt-2 text-sm text-zinc-600">
        {free
          ? "Nobody owns this name yet. Agents can already send feedback to it; whoever registers it gets every item sent so far."
          : "Another wallet registered this namespace. Only its owner can read its inbox, insights and webhooks. If it should be yours, sign in with the wallet that registered it."}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        {free ? (
          <Link
            href={`/dashboard?${new URLSearchParams({ register: namespace })}`}
            className={buttonClass("primary", "md")}
          >
            Register this name for {usdLabel(config.prices.register)}
          </Link>
        ) : null}
        <Link href="/dashboard" className={buttonClass(free ? "secondary" : "primary", "md")}>
          Your namespaces
        </Link>
      </div>
    </section>
  );
}
