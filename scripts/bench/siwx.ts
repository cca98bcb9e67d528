/** The siwx section, in-process: `verifySignIn` beside the x402 SDK's verification of the same proofs. */
import { parseSIWxHeader, validateSIWxMessage, verifySIWxSignature } from "@x402/extensions/sign-in-with-x";
import * as Secp256k1 from "ox/Secp256k1";
import { hexToBytes, keccak256, numberToBytes } from "viem";
import { authenticationRequired, verifySignIn } from "../../lib/auth/siwx";
import { ecrecoverImplementation, recoverSigner, recoverWith } from "../../lib/chain/ecdsa";
import type { AppError } from "../../lib/http/errors";
import { signInHeader } from "../../testing/sign-in";
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { INBOX_NAMESPACE } from "./inbox";
import { now, timed } from "./load";

/** A SIGN-IN-WITH-X proof for `url`, on a challenge (and nonce) issued by this process's own code. */
export function signedProof(url: string, privateKey: `0x${string}`) {
  const challenge = async (input: string | URL | Request) => {
    const refused = (await authenticationRequired(String(input)).catch((e: unknown) => e)) as AppError;
    return new Response(null, { status: 402, headers: refused.extra.headers });
  };
  return signInHeader(challenge as typeof fetch, url, privateKey);
}

/** Microseconds per recovery with the implementation in use and with the pure-JS curve, side by side. */
function recoveryCost(privateKey: `0x${string}`) {
  const hash = hexToBytes(keccak256("0x01"));
  const sig = Secp256k1.sign({ payload: hash, privateKey });
  const [r, s] = [numberToBytes(sig.r, { size: 32 }), numberToBytes(sig.s, { size: 32 })];
  const per = (fn: () => unknown, n: number) => {
    const t = now();
    for (let i = 0; i < n; i++) fn();
    return Math.round(((now() - t) / n) * 1000 * 10) / 10;
  };
  return {
    implementation: ecrecoverImplementation,
    usPerRecovery: per(() => recoverSigner(hash, r, s, sig.yParity as 0 | 1), 2000),
    pureJsUsPerRecovery: per(() => recoverWith.pureJs(hash, r, s, sig.yParity as 0 | 1), 300),
  };
}

export async function siwx(info: DevnetInfo) {
  const url = `${info.appUrl}/api/namespace/list?namespace=${INBOX_NAMESPACE}`;
  const [proofs, keys] = [[] as string[], info.accounts.map((a) => a.privateKey)];
  for (let i = 0; i < config.siwxProofs; i++) proofs.push(await signedProof(url, keys[i % keys.length]!));
  // The anchor: the SDK's parse, validation and signature check, with no nonce store (no database).
  const sdk = await timed(proofs.length, async (i) => {
    const payload = parseSIWxHeader(proofs[i]!);
    const valid = await validateSIWxMessage(payload, new URL(url));
    const verified = await verifySIWxSignature(payload);
    if (!valid.isValid || !verified.isValid) throw new Error("the SDK refused a good sign-in proof");
  });
  const ours = await timed(proofs.length, (i) => verifySignIn(proofs[i]!));
  // A second pass must fail: each nonce is single-use.
  const replayOfUsedProof = await verifySignIn(proofs[0]!).then(
    () => "accepted (BUG)",
    () => "refused",
  );
  const recovery = recoveryCost(info.accounts[0]!.privateKey);
  console.log(
    `  [in-process] sign-in: ${ours.perSecond}/s, the SDK's ${sdk.perSecond}/s, a replay ${replayOfUsedProof}`,
  );
  const { perSecond, latency } = ours;
  return { siwx: { proofs: config.siwxProofs, perSecond, latency, sdk, recovery, replayOfUsedProof } };
}
