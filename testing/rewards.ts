import { encodePaymentRequiredHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { commitRewardedResolve, type RewardedResolveInput } from "@/lib/domain/rewards/resolve-with-reward";
import { commitPaid } from "@/lib/payment/commit-paid";
import { claimPayment, requestHashOf } from "@/lib/payment/ledger";
import { mppProtocol } from "@/lib/payment/mpp";
import type { Charge, VerifiedPayment } from "@/lib/payment/types";
import { x402Protocol } from "@/lib/payment/x402";
import { resolveFeedbackSchema } from "@/lib/schemas/resolve";
import { deployer } from "@/scripts/devnet/accounts";
import type { DevnetInfo } from "@/scripts/devnet/start-devnet";
import { tempoClient } from "@/scripts/devnet/tempo";
import { fundTempoWallets, PATH_USD, pinFeeToken } from "@/scripts/devnet/tempo-usdce";
import { APP } from "./app-fetch";

const url = `${APP}/api/namespace/resolve`;

/** The charge of a rewarded resolve of `amount` base units: its price is the reward. */
function rewardCharge(amount: bigint): Charge {
  return {
    operation: "resolve",
    method: "POST",
    amountMicroUsd: amount,
    resourceUrl: url,
    description: `Resolving with a ${Number(amount) / 1e6} USD reward`,
  };
}

/**
 * A PAYMENT-REQUIRED header for a rewarded resolve of `amount` base units, exactly as the service
 * offers it: paid to the refund wallet, for the resolve route's resource.
 */
export function rewardRequirement(
  devnet: DevnetInfo,
  resourceUrl: string,
  amount: bigint,
  description: string,
): string {
  return encodePaymentRequiredHeader({
    x402Version: 2,
    error: "Payment required",
    resource: { url: resourceUrl, description, mimeType: "application/json" },
    accepts: [
      {
        scheme: "exact",
        network: devnet.x402.network as `${string}:${string}`,
        amount: amount.toString(),
        asset: devnet.x402.asset,
        payTo: devnet.x402.refundWallet,
        maxTimeoutSeconds: 60,
        extra: { name: devnet.x402.assetName, version: devnet.x402.assetVersion },
      },
    ],
  });
}

/** A verified x402 payment of a rewarded resolve, signed by `payer` as the route would have asked. */
export async function x402RewardPayment(
  devnet: DevnetInfo,
  payer: { sign(header: string): Promise<string> },
  amount: bigint,
): Promise<VerifiedPayment> {
  const charge = rewardCharge(amount);
  const signature = await payer.sign(rewardRequirement(devnet, url, amount, charge.description));
  const request = new Request(url, { headers: { "payment-signature": signature } });
  return x402Protocol.verify(request, charge, await x402Protocol.read(request, charge));
}

/** A verified MPP payment of a rewarded resolve, for a challenge the service issued. */
export async function mppRewardPayment(
  payer: { createCredential(challenge: Response): Promise<string> },
  amount: bigint,
): Promise<VerifiedPayment> {
  const charge = rewardCharge(amount);
  const { headers } = await mppProtocol.challenge(charge);
  const authorization = await payer.createCredential(new Response(null, { status: 402, headers }));
  const request = new Request(url, { method: "POST", headers: { authorization } });
  return mppProtocol.verify(request, charge, await mppProtocol.read(request, charge));
}

/**
 * A rewarded resolve of `id` paid with `payment` and stored, as a request does it, stopping before
 * its payout is paid (as a request whose payout wallet emptied after its balance check). Its payment id.
 */
export async function storeRewardedResolve(payment: VerifiedPayment, id: string, amount: bigint) {
  const db = await getDb();
  const body = { feedbackId: id, message: "Thanks", rewardAmount: String(Number(amount) / 1e6) };
  const input: RewardedResolveInput = {
    ...resolveFeedbackSchema.parse(body),
    resolver: null,
    rewardMicroUsd: String(amount),
  };
  const claim = await claimPayment(db, {
    payment,
    operation: "resolve",
    lockKey: `resolve:${id}`,
    request: input,
    requestHash: requestHashOf(resolveFeedbackSchema.parse(body)),
    reserve: async (tx, paymentId) => {
      await tx.update(feedback).set({ resolvingPaymentId: paymentId }).where(eq(feedback.id, id));
    },
  });
  if (!claim.ok) throw new Error("claim refused");
  const { txRef } = await payment.settle();
  await commitPaid((ctx) => commitRewardedResolve(input, ctx), {
    db,
    paymentId: claim.paymentId,
    txRef,
    payer: payment.payer,
    payerContractOn: payment.payerContractOn,
    protocol: payment.protocol,
  });
  return claim.paymentId;
}

/**
 * Mints `usdcE` to a wallet on the devnet's Tempo chain (as an operator tops up the payout wallet), and
 * with `fees` gives it pathUSD and makes pathUSD its fee token, as the devnet does for its own wallets.
 */
export async function fundTempoWallet(
  devnet: DevnetInfo,
  privateKey: Hex,
  { usdcE = 0n, fees = false }: { usdcE?: bigint; fees?: boolean },
) {
  const address = privateKeyToAccount(privateKey).address;
  const admin = tempoClient(devnet.tempo, deployer.privateKey);
  await fundTempoWallets(admin, [{ address, usdcE, pathUsd: fees ? 1_000_000_000n : 0n }]);
  if (fees) await pinFeeToken([tempoClient(devnet.tempo, privateKey)], PATH_USD);
}
