import "server-only";
import { createWalletClient, encodeFunctionData, erc20Abi, type Hex, keccak256, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { env } from "@/lib/env";
import { x402Chain } from "./facilitator";
import { rpcTransport } from "./rpc";
import {
  broadcast as broadcastTempo,
  type SignedTransfer,
  signTransfer,
  minedStatus as tempoMined,
} from "./tempo";

/** Where a refund goes back: on the network and in the asset the resolver paid with. */
export type RefundTarget = { protocol: string; payer: Hex; amount: bigint };

function x402Refunder() {
  const key = env().X402_REFUND_PRIVATE_KEY;
  if (!key)
    throw new Error("X402_REFUND_PRIVATE_KEY is not set: an x402 payment cannot be refunded automatically");
  return createWalletClient({
    account: privateKeyToAccount(key as Hex),
    chain: x402Chain(),
    transport: rpcTransport(env().X402_RPC_URL, { timeout: env().X402_TIMEOUT_MS }),
    pollingInterval: 250,
  }).extend(publicActions);
}

/**
 * Signs, without sending, the transfer that pays a resolver back. Stored before it is broadcast, the
 * same bytes are what any retry sends, so a refund lands once at most.
 */
export async function signRefund(target: RefundTarget, memo: Hex): Promise<SignedTransfer> {
  if (target.protocol === "mpp") return signTransfer(target.payer, target.amount, memo);
  const client = x402Refunder();
  const request = await client.prepareTransactionRequest({
    to: env().X402_ASSET as Hex,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [target.payer, target.amount],
    }),
  });
  const rawTx = await client.signTransaction(request as never);
  return { rawTx, txHash: keccak256(rawTx) };
}

/** Broadcasts a signed refund on its network. */
export async function broadcastRefund(protocol: string, rawTx: Hex): Promise<void> {
  if (protocol === "mpp") return broadcastTempo(rawTx);
  await x402Refunder().sendRawTransaction({ serializedTransaction: rawTx });
}

/** The mined outcome of a refund, or null while it is not mined. */
export async function refundStatus(protocol: string, txHash: Hex): Promise<"success" | "reverted" | null> {
  if (protocol === "mpp") return tempoMined(txHash);
  try {
    return (await x402Refunder().getTransactionReceipt({ hash: txHash })).status;
  } catch {
    return null;
  }
}
