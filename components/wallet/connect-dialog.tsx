import { useState } from "react";
import { useConnection, useConnectors } from "wagmi";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { WalletIcon } from "@/components/ui/icons";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import { useSignIn } from "@/lib/api-client/hooks/use-sign-in";
import { DEVNET_CONNECTOR_PREFIX } from "@/lib/api-client/wallet/wagmi-config";
import { shortAddress } from "../format";
import { DevnetWallets } from "./devnet-wallets";

/**
 * Connect a wallet and sign in, in one go: pick a wallet, approve the connection, sign one message.
 * Browser wallets come from window.ethereum and EIP-6963; the devnet adds funded test wallets.
 */
export function ConnectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const connection = useConnection();
  const connectors = useConnectors();
  const signIn = useSignIn();
  const [chosen, setChosen] = useState<string | null>(null);

  const browser = connectors.filter((c) => !c.id.startsWith(DEVNET_CONNECTOR_PREFIX));
  const announced = browser.filter((c) => c.id !== "injected");
  // The generic window.ethereum entry duplicates an announced (EIP-6963) wallet when there is one.
  const shown = announced.length > 0 ? announced : browser;
  const devnet = connectors.filter((c) => c.id.startsWith(DEVNET_CONNECTOR_PREFIX));
  // The dialog renders only in the browser (once opened), so window is there to look at.
  const hasInjected = typeof window !== "undefined" && "ethereum" in window && Boolean(window.ethereum);

  function start(connectorId?: string) {
    setChosen(connectorId ?? "current");
    signIn.mutate({ connectorId }, { onSuccess: onClose });
  }

  return (
    <Dialog open={open} onClose={onClose} title="Connect a wallet and sign in">
      <p className="mb-4 text-sm text-zinc-600">
        Signing a message proves you hold the wallet. It costs nothing and keeps you signed in on this browser
        for eight hours.
      </p>
      <div className="flex flex-col gap-2">
        {connection.status === "connected" && connection.address ? (
          <Button onClick={() => start()} busy={signIn.isPending && chosen === "current"} className="w-full">
            Sign in as {shortAddress(connection.address)}
          </Button>
        ) : null}
        {shown.map((connector) =>
          connector.id === "injected" && !hasInjected ? (
            <p
              key={connector.uid}
              className="rounded-lg border border-dashed border-zinc-300 p-3 text-sm text-zinc-600"
            >
              No browser wallet found. Install a wallet extension such as MetaMask or Rabby, then reload this
              page.
            </p>
          ) : (
            <Button
              key={connector.uid}
              variant="secondary"
              className="w-full justify-start"
              busy={signIn.isPending && chosen === connector.id}
              disabled={signIn.isPending}
              onClick={() => start(connector.id)}
            >
              {connector.icon ? (
                // biome-ignore lint/performance/noImgElement: wallet icons are data URIs from the wallet itself
                <img src={connector.icon} alt="" className="size-5 rounded" />
              ) : (
                <WalletIcon className="size-5 text-zinc-500" />
              )}
              {connector.id === "injected" ? "Browser wallet" : connector.name}
            </Button>
          ),
        )}
      </div>
      {devnet.length > 0 ? (
        <DevnetWallets
          connectors={devnet}
          pending={signIn.isPending && Boolean(chosen?.startsWith(DEVNET_CONNECTOR_PREFIX))}
          disabled={signIn.isPending}
          onConnect={start}
        />
      ) : null}
      <div className="mt-4 space-y-2" aria-live="polite">
        {signIn.isPending ? (
          <p className="text-sm text-zinc-600">Approve the connection and sign the message in your wallet…</p>
        ) : null}
        {signIn.isError ? <Notice tone="error">{explainError(signIn.error, "sign-in")}</Notice> : null}
      </div>
    </Dialog>
  );
}
