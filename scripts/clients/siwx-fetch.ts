import {
  createSIWxClientExtension,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtensionInfo,
} from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { PrivateKeyAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";

type SignInDeclaration = {
  info?: Omit<SIWxExtensionInfo, "chainId" | "type">;
  supportedChains?: { chainId: string; type: string }[];
};

/**
 * The official client signs in on the first EVM chain the service lists. A wallet whose funds are on
 * another listed chain (an MPP payer on Tempo) names that one instead, with the same official payload
 * builder and header encoding.
 */
function signInOnChain(account: PrivateKeyAccount, chainId: string) {
  return {
    key: SIGN_IN_WITH_X,
    transportHooks: {
      http: {
        onPaymentRequired: async (
          _declaration: unknown,
          context: { paymentRequired: { extensions?: Record<string, unknown> }; requestUrl: string },
        ) => {
          const declared = context.paymentRequired.extensions?.[SIGN_IN_WITH_X] as
            | SignInDeclaration
            | undefined;
          const chain = declared?.supportedChains?.find((c) => c.chainId === chainId);
          if (!declared?.info || !chain) return;
          const payload = await createSIWxPayload(
            { ...declared.info, chainId: chain.chainId, type: chain.type } as Parameters<
              typeof createSIWxPayload
            >[0],
            account,
            context.requestUrl,
          );
          return { headers: { [SIGN_IN_WITH_X]: encodeSIWxHeader(payload) } };
        },
      },
    },
  };
}

/**
 * A fetch that signs in with the wallet whenever the service answers "Authentication Required",
 * using the official x402 sign-in-with-x client. Each retry uses a fresh, single-use challenge.
 * `chainId` (CAIP-2, e.g. "eip155:4217") picks the listed chain to sign in on; by default the first.
 */
export function createSignInFetch(
  privateKey: `0x${string}`,
  fetchImpl: typeof globalThis.fetch = globalThis.fetch,
  options: { chainId?: string } = {},
) {
  const account = privateKeyToAccount(privateKey);
  const extension = options.chainId
    ? signInOnChain(account, options.chainId)
    : createSIWxClientExtension({ signers: [account] });
  const client = new x402Client().registerExtension(extension as never);
  return { address: account.address, fetch: wrapFetchWithPayment(fetchImpl, client) };
}
