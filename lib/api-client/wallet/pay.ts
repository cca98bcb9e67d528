import type { Config } from "wagmi";
import { signTypedData } from "wagmi/actions";
import { isSignedOutError, toApiError } from "../http";

/** Micro-USD (6 decimals) as the asset's base units. */
function toAssetUnits(microUsd: bigint, decimals: number): bigint {
  return decimals >= 6 ? microUsd * 10n ** BigInt(decimals - 6) : microUsd / 10n ** BigInt(6 - decimals);
}

/** A fetch that stops before paying when the 402 only asks for a sign-in (the session ended). */
const signInAware: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status === 402 && response.headers.get("content-type")?.includes("problem+json")) {
    const problem = await toApiError(response.clone());
    if (isSignedOutError(problem)) throw problem;
  }
  return response;
};

/**
 * A fetch that answers an x402 402 by having the connected wallet sign the payment (EIP-3009), the same
 * flow agents use. It refuses to sign anything above `maxMicroUsd`, the price the person was shown.
 * This module and the x402 client are loaded on first payment, so pages that never pay do not ship them.
 */
export async function createPayingFetch(
  wagmi: Config,
  account: `0x${string}`,
  payment: { network: `${string}:${string}`; asset: `0x${string}`; decimals: number; maxMicroUsd: bigint },
): Promise<typeof fetch> {
  const [{ wrapFetchWithPayment, x402Client }, { ExactEvmScheme }] = await Promise.all([
    import("@x402/fetch"),
    import("@x402/evm/exact/client"),
  ]);
  // Signing goes to the connected wallet (eth_signTypedData_v4); nothing here ever holds a key.
  const signer = {
    address: account,
    signTypedData: (args: Omit<Parameters<typeof signTypedData>[1], "account">) =>
      signTypedData(wagmi, { ...args, account } as Parameters<typeof signTypedData>[1]),
  };
  const client = x402Client.fromConfig({
    schemes: [{ network: payment.network, client: new ExactEvmScheme(signer as never) }],
    spendControls: {
      allowedAssets: [
        {
          network: payment.network,
          asset: payment.asset,
          maxAmountPerPayment: String(toAssetUnits(payment.maxMicroUsd, payment.decimals)),
        },
      ],
    },
  });
  return wrapFetchWithPayment(signInAware, client);
}
