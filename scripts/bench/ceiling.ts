/** The ceiling, in-process: our facilitator settling pre-signed payments alone; no HTTP, no database. */
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import { singleKeyFacilitator } from "../../lib/payment/facilitator";
import { x402Protocol } from "../../lib/payment/x402";
import type { DevnetInfo } from "../devnet/start-devnet";
import { closedLoop, now } from "./load";
import { cpuMeter } from "./machine";
import { type RawLevel, x402Payers } from "./paid";
import { feedbackCharge } from "./phases";

type Options = { key: `0x${string}`; concurrency: number; count: number; warmup: number };

export async function ceiling(info: DevnetInfo, options: Options): Promise<RawLevel> {
  const { key, concurrency, count, warmup } = options;
  const [{ facilitator }, payers] = [singleKeyFacilitator(key), x402Payers(info)];
  const header = (await x402Protocol.challenge(feedbackCharge(info))).headers["PAYMENT-REQUIRED"]!;
  const requirements = decodePaymentRequiredHeader(header).accepts[0]!;
  const signed = async (_: unknown, i: number) =>
    decodePaymentSignatureHeader(await payers[i % payers.length]!.sign(header));
  const sign = (n: number) => Promise.all(Array.from({ length: n }, signed));
  const settle = async (payload: Awaited<ReturnType<typeof signed>>) => {
    const result = await facilitator.settle(payload, requirements);
    // Why it failed (a node's error, a timeout), with long hex (calldata: the payer's signature) cut out.
    const why = result.errorMessage?.replace(/0x[0-9a-fA-F]{66,}/g, "0x…").slice(0, 240);
    return result.success
      ? null
      : `settle failed: ${result.errorReason ?? "unknown"}${why ? ` (${why})` : ""}`;
  };
  const warm = await sign(warmup);
  await closedLoop(warm.length, 8, (i) => settle(warm[i]!));
  const [payloads, latencies] = [await sign(count), [] as number[]];
  // This process settles and is its own load generator: all of its CPU is the settling process's.
  const [own, cpu] = [process.cpuUsage(), cpuMeter(process.pid)];
  const load = await closedLoop(count, concurrency, async (i) => {
    const t0 = now();
    const failure = await settle(payloads[i]!);
    if (failure === null) latencies.push(now() - t0);
    return failure;
  });
  const { user, system } = process.cpuUsage(own);
  const { rps: _, latency: __, ...counts } = load;
  const cpuSpent = { ...cpu(), serverMs: (user + system) / 1000 };
  return { ...counts, latencies, challengeMs: [], signMs: [], serverMs: {}, cpu: cpuSpent };
}
