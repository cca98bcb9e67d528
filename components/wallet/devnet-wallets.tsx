import { useId, useState } from "react";
import type { Connector } from "wagmi";
import { Button } from "@/components/ui/button";
import { useClientConfig } from "@/lib/api-client/config";
import { shortAddress } from "../format";

/** Devnet only: pick one of the funded test wallets the local node signs for, and connect in one click. */
export function DevnetWallets({
  connectors,
  pending,
  disabled,
  onConnect,
}: {
  connectors: readonly Connector[];
  pending: boolean;
  disabled: boolean;
  onConnect: (connectorId: string) => void;
}) {
  const { devnetWallets } = useClientConfig();
  const [selected, setSelected] = useState(connectors[0]?.id ?? "");
  const selectId = useId();
  return (
    <div className="mt-5 rounded-xl border border-dashed border-amber-300 bg-amber-50/60 p-4">
      <p className="text-sm font-medium text-amber-900">Local devnet</p>
      <p className="mt-0.5 text-xs text-amber-800">
        Test wallets hold 1,000 test USDC each; the local chain signs for them. Not shown in production.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={selectId} className="sr-only">
          Test wallet
        </label>
        <select
          id={selectId}
          value={selected}
          onChange={(e) => setSelected(e.target.value)}
          className="h-10 flex-1 rounded-lg border border-amber-300 bg-white px-2 text-sm"
        >
          {connectors.map((connector, index) => (
            <option key={connector.uid} value={connector.id}>
              {connector.name} · {shortAddress(devnetWallets[index])}
            </option>
          ))}
        </select>
        <Button onClick={() => onConnect(selected)} busy={pending} disabled={disabled || !selected}>
          Use test wallet
        </Button>
      </div>
    </div>
  );
}
