import "server-only";
import { BaseError, createPublicClient } from "viem";
import { isChainUnreachable, refusalReason, unreachableWords } from "@/lib/chain/failures";
import { rpcTransport } from "@/lib/chain/rpc";
import { TimeoutError, withTimeout } from "@/lib/payment/timeout";

/** skip: not checked, because an item it needs failed (that item's error is printed already). */
type DoctorStatus = "ok" | "warn" | "error" | "skip";

/** One line of the doctor: never a key, nor an RPC or database URL (they may embed credentials). */
export type DoctorItem = { status: DoctorStatus; item: string; detail: string; fix?: string };

export const ok = (item: string, detail: string): DoctorItem => ({ status: "ok", item, detail });
export const warn = (item: string, detail: string, fix: string): DoctorItem => ({
  status: "warn",
  item,
  detail,
  fix,
});
export const fail = (item: string, detail: string, fix: string): DoctorItem => ({
  status: "error",
  item,
  detail,
  fix,
});
export const skip = (item: string, because: string): DoctorItem => ({
  status: "skip",
  item,
  detail: `not checked: ${because}`,
});

/** The host of a URL, which names a node without its path or credentials (where API keys sit). */
export function hostOf(url: string): string {
  return new URL(url).host;
}

/** Why a call to a node failed, in words that cannot carry its URL: viem's messages name it. */
function failureWords(error: unknown, timeoutMs: number): string {
  const late = `no answer within ${timeoutMs} ms`;
  if (error instanceof TimeoutError) return late;
  if (!(error instanceof BaseError)) return "unreachable";
  // The node answered, and refused (a revert, no such contract): its first line names no URL.
  if (!isChainUnreachable(error)) return `refused: ${refusalReason(error)}`;
  return unreachableWords(error, late);
}

/**
 * Runs one item within `timeoutMs`; a node that fails or stays silent becomes this item's error
 * (`what` names the node, `fix` says what to change), so an unreachable RPC never hangs the doctor.
 */
export async function bounded(
  item: string,
  options: { timeoutMs: number; what: string; fix: string },
  run: () => Promise<DoctorItem>,
): Promise<DoctorItem> {
  try {
    return await withTimeout(run(), options.timeoutMs, item);
  } catch (error) {
    return fail(item, `${options.what}: ${failureWords(error, options.timeoutMs)}`, options.fix);
  }
}

/** A read-only client whose every call is bounded and tried once: the doctor reports, it does not wait. */
export function boundedClient(url: string, timeoutMs: number) {
  return createPublicClient({ transport: rpcTransport(url, { timeout: timeoutMs, retryCount: 0 }) });
}

/** The node at `url` answers, for chain `expected` (from the variable `idVariable`). */
export function chainItem(options: {
  item: string;
  node: string;
  url: string;
  urlVariable: string;
  idVariable: string;
  expected: number;
  /** The variable's value as written ("eip155:8453"). */
  configured: string;
  timeoutMs: number;
}): Promise<DoctorItem> {
  const { item, url, urlVariable, idVariable, expected, configured, timeoutMs } = options;
  const node = `${options.node} (${hostOf(url)})`;
  const fix = `check ${urlVariable}, and that the node is up`;
  return bounded(item, { timeoutMs, what: node, fix }, async () => {
    const id = await boundedClient(url, timeoutMs).getChainId();
    if (id === expected) return ok(item, `chain ${id} at ${hostOf(url)}`);
    return fail(
      item,
      `${node} serves chain ${id}, but ${idVariable} is ${configured}`,
      `point ${urlVariable} at a node of chain ${expected}, or set ${idVariable} to the chain you mean`,
    );
  });
}
