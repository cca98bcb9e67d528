"use client";

import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import { useAcceptTransfer } from "@/lib/api-client/hooks/use-members";
import { useSession } from "@/lib/api-client/hooks/use-session";

/** The proposed wallet accepts the namespace, and owns it from then on. */
export function AcceptTransfer({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const accept = useAcceptTransfer(session?.address ?? "", namespace);
  return (
    <section
      aria-labelledby="accept-heading"
      className="mx-auto mt-12 w-[calc(100%-2rem)] max-w-md space-y-4 rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h1 id="accept-heading" className="text-lg font-semibold break-words">
        Accept <span className="font-mono">{namespace}</span>
      </h1>
      {accept.isSuccess ? (
        <>
          <Notice tone="success">
            You own <span className="font-mono">{namespace}</span> now. Its previous owner stays as an admin
            until you remove it on the Members page.
          </Notice>
          <Link href={`/dashboard/${encodeURIComponent(namespace)}`} className={buttonClass("primary")}>
            Open the inbox
          </Link>
        </>
      ) : (
        <>
          <p className="text-sm text-zinc-700">
            Its owner proposed this namespace to your wallet. Accepting makes you its owner: its inbox, its
            members, its webhook and every report filed to it.
          </p>
          <Button busy={accept.isPending} onClick={() => accept.mutate()}>
            Accept and become the owner
          </Button>
          {accept.isError ? <Notice tone="error">{explainError(accept.error, "save")}</Notice> : null}
        </>
      )}
    </section>
  );
}
