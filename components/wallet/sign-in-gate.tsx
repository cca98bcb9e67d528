"use client";

import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { WalletIcon } from "@/components/ui/icons";
import { Loading } from "@/components/ui/states";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { ConnectDialog } from "./connect-dialog";

/** Shows its children to a signed-in browser; otherwise explains why and offers to sign in. */
export function SignInGate({ title, children }: { title: string; children: ReactNode }) {
  const { session, isPending } = useSession();
  const [open, setOpen] = useState(false);
  if (isPending) return <Loading label="Checking your session…" />;
  if (session) return children;
  return (
    <div className="mx-auto mt-16 w-[calc(100%-2rem)] max-w-md rounded-2xl border border-zinc-200 bg-white p-6 text-center shadow-sm sm:p-8">
      <div className="mx-auto mb-4 grid size-12 place-items-center rounded-full bg-indigo-50 text-indigo-600">
        <WalletIcon className="size-6" />
      </div>
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-zinc-600">
        Connect your wallet and sign one message. Signing is free; nothing is paid until you choose to.
      </p>
      <Button className="mt-6" onClick={() => setOpen(true)}>
        Connect wallet
      </Button>
      <ConnectDialog open={open} onClose={() => setOpen(false)} />
    </div>
  );
}
