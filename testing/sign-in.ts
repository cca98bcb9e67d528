import { decodePaymentRequiredHeader } from "@x402/core/http";
import {
  type CompleteSIWxInfo,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount } from "viem/accounts";

/** Asks `url` for a sign-in challenge and returns a SIGN-IN-WITH-X proof for it, signed by the key (or a signer of
 * its own, such as a contract wallet's). */
export async function signInHeader(
  fetchImpl: typeof fetch,
  url: string,
  signer:
    | `0x${string}`
    | { address: `0x${string}`; signMessage: (m: { message: string }) => Promise<`0x${string}`> },
): Promise<string> {
  const res = await fetchImpl(url);
  if (res.status !== 402) throw new Error(`expected a sign-in challenge from ${url}, got ${res.status}`);
  const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
  const ext = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
  const chain = ext.supportedChains[0]!;
  const info = { ...ext.info, chainId: chain.chainId, type: chain.type } as CompleteSIWxInfo;
  return encodeSIWxHeader(
    await createSIWxPayload(info, typeof signer === "string" ? privateKeyToAccount(signer) : signer, url),
  );
}
