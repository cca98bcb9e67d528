import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export type X402PayerOptions = {
  privateKey: `0x${string}`;
  network: `${string}:${string}`;
  rpcUrl: string;
  /** The asset the service charges in; non-default assets must be allowed explicitly. */
  asset: string;
  /** Largest single payment this payer will sign, in the asset's base units. */
  maxAmount?: bigint;
  fetch?: typeof globalThis.fetch;
  /**
   * The `payment-identifier` to attach to each payment, asked before each one (undefined: none), where
   * the server declares the extension: the x402 form of an Idempotency-Key.
   */
  paymentIdentifier?: () => string | undefined;
};

/** A fetch that answers x402 402s by signing a payment from the given wallet, using the official client. */
export function createX402Fetch(options: X402PayerOptions) {
  const account = privateKeyToAccount(options.privateKey);
  const publicClient = createPublicClient({ transport: http(options.rpcUrl) });
  const signer = toClientEvmSigner(account, publicClient);
  const client = x402Client.fromConfig({
    schemes: [{ network: options.network, client: new ExactEvmScheme(signer) }],
    spendControls: {
      allowedAssets: [
        {
          network: options.network,
          asset: options.asset,
          maxAmountPerPayment: String(options.maxAmount ?? 2_000_000n),
        },
      ],
    },
  });
  const { paymentIdentifier } = options;
  if (paymentIdentifier) {
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      const id = paymentIdentifier();
      if (id && paymentRequired.extensions)
        appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
    });
  }
  return {
    address: account.address,
    fetch: wrapFetchWithPayment(options.fetch ?? globalThis.fetch, client),
    /** Signs one payment for a decoded PaymentRequired (as x402's MCP transport carries it). */
    pay: (required: PaymentRequired) => client.createPaymentPayload(required),
    /** Signs one payment for a 402's PAYMENT-REQUIRED header and returns the PAYMENT-SIGNATURE value. */
    async sign(paymentRequiredHeader: string): Promise<string> {
      const payload = await client.createPaymentPayload(decodePaymentRequiredHeader(paymentRequiredHeader));
      return encodePaymentSignatureHeader(payload);
    },
  };
}

/** The x402 payer of devnet test wallet `index`, on the devnet's chain and token. */
export function devnetX402Payer(
  devnet: {
    accounts: readonly { privateKey: `0x${string}` }[];
    x402: { network: `${string}:${string}`; rpcUrl: string; asset: string };
  },
  index: number,
  fetchImpl?: typeof fetch,
  more: Pick<X402PayerOptions, "paymentIdentifier"> = {},
) {
  const account = devnet.accounts[index];
  if (!account) throw new Error(`no devnet account ${index}`);
  return createX402Fetch({
    privateKey: account.privateKey,
    network: devnet.x402.network,
    rpcUrl: devnet.x402.rpcUrl,
    asset: devnet.x402.asset,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...more,
  });
}
