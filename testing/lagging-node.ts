import { toHex } from "viem";
import type { FaultPolicy } from "./rpc-proxy";

const isNumber = (block: unknown): block is string => typeof block === "string" && block.startsWith("0x");

/**
 * An RPC node that stopped following its chain at block `at`, as a replica behind a load balancer
 * does: "latest" is that block, and nothing after it exists for the node (no block, receipt,
 * transaction or log), while what is sent to it is still relayed to the chain.
 */
export function laggingNode(at: bigint): FaultPolicy {
  const head = toHex(at);
  const after = (block: unknown) => isNumber(block) && BigInt(block) > at;
  // A tag ("latest", "pending", …) or a later number reads the node's own head instead.
  const pin = (block: unknown) => (block === undefined || !isNumber(block) || after(block) ? head : block);
  const unseen = (result: unknown) => {
    const mined = (result as { blockNumber?: string | null } | null)?.blockNumber;
    return after(mined) ? null : result;
  };
  return ({ method, params }) => {
    switch (method) {
      case "eth_blockNumber":
        return { kind: "reply", result: head };
      case "eth_getBlockByNumber":
        if (after(params[0])) return { kind: "reply", result: null };
        return { kind: "rewrite", params: [pin(params[0]), ...params.slice(1)] };
      case "eth_getTransactionReceipt":
      case "eth_getTransactionByHash":
        return { kind: "rewrite", result: unseen };
      case "eth_getLogs": {
        const filter = params[0] as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };
        if (filter.blockHash) return { kind: "pass" };
        if (after(filter.fromBlock)) return { kind: "reply", result: [] };
        return { kind: "rewrite", params: [{ ...filter, toBlock: pin(filter.toBlock) }] };
      }
      case "eth_call":
      case "eth_getBalance":
      case "eth_getCode":
      case "eth_getTransactionCount":
        return { kind: "rewrite", params: [params[0], pin(params[1])] };
      default:
        return { kind: "pass" };
    }
  };
}
