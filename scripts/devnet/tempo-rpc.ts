import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, createClient, http } from "viem";
import { readContract } from "viem/actions";
import { Abis, Actions } from "viem/tempo";

/** TIP-20 tokens live at 0x20c0 followed by ten zero bytes and an 8-byte id. */
const TIP20_PREFIX = "0x20c000000000000000000000";
/** transfer(address,uint256) and transferWithMemo(address,uint256,bytes32). */
const TRANSFER_SELECTORS = new Set(["0xa9059cbb", "0x95777d59"]);
/** A request body larger than this is not a wallet's JSON-RPC call. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

type Call = { to?: string; data?: string; input?: string };
type FillRequest = Call & { from?: string; feeToken?: string | null; calls?: Call[] };
type RpcMessage = { method?: string; params?: unknown[] };

export type TempoRpcFront = { rpcUrl: string; stop(): Promise<void> };

/**
 * The devnet's Tempo RPC: anvil behind a JSON-RPC front adding Tempo's one fee rule anvil lacks, so a wallet
 * holding only USDC.e can pay: a transaction naming no fee token, moving one USD TIP-20, pays its fee in it.
 * Applied at `eth_fillTransaction`, where wallets ask for the fee token; all else passes byte for byte.
 */
export async function startTempoRpcFront(options: {
  upstream: string;
  port?: number;
}): Promise<TempoRpcFront> {
  const { upstream, port = 0 } = options;
  const chain = createClient({ transport: http(upstream, { retryCount: 0 }) });

  async function feeTokenOf(tx: FillRequest): Promise<Address | null> {
    if (tx.feeToken || !tx.from) return null;
    const calls = tx.calls ?? (tx.to ? [tx] : []);
    const token = calls[0]?.to?.toLowerCase();
    if (!token?.startsWith(TIP20_PREFIX)) return null;
    const transfersOnly = calls.every(
      (c) =>
        c.to?.toLowerCase() === token &&
        TRANSFER_SELECTORS.has((c.data ?? c.input ?? "").slice(0, 10).toLowerCase()),
    );
    if (!transfersOnly) return null;
    const preference = await Actions.fee.getUserToken(chain, { account: tx.from as Address });
    if (preference) return null;
    const currency = await readContract(chain, {
      address: token as Address,
      abi: Abis.tip20,
      functionName: "currency",
    });
    return currency === "USD" ? (token as Address) : null;
  }

  async function withFeeTokens(body: string): Promise<string> {
    const parsed = JSON.parse(body) as RpcMessage | RpcMessage[];
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    let changed = false;
    for (const message of messages) {
      const tx = message.method === "eth_fillTransaction" ? (message.params?.[0] as FillRequest) : null;
      if (!tx || typeof tx !== "object") continue;
      const feeToken = await feeTokenOf(tx).catch(() => null);
      if (!feeToken) continue;
      tx.feeToken = feeToken;
      changed = true;
    }
    return changed ? JSON.stringify(parsed) : body;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    let body = Buffer.concat(chunks).toString("utf8");
    if (body.includes("eth_fillTransaction")) body = await withFeeTokens(body).catch(() => body);
    const answer = await fetch(upstream, {
      method: req.method ?? "POST",
      headers: { "content-type": req.headers["content-type"] ?? "application/json" },
      ...(req.method === "GET" || req.method === "HEAD" ? {} : { body }),
    });
    res.writeHead(answer.status, {
      "content-type": answer.headers.get("content-type") ?? "application/json",
    });
    res.end(Buffer.from(await answer.arrayBuffer()));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // anvil is gone (stopping) or the client hung up: answer like an unreachable node would.
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  // Wallet clients keep connections alive; the devnet must still stop at once.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    rpcUrl: `http://127.0.0.1:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
