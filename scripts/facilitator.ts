/**
 * `npm run facilitator`: a standalone x402 facilitator, like the x402 project's example, for the service's
 * X402_FACILITATOR_URL (docs/payments.md). Environment: FACILITATOR_PRIVATE_KEY (pays gas; never logged),
 * X402_RPC_URL, X402_NETWORK, FACILITATOR_PORT (4022), FACILITATOR_HOST (127.0.0.1), FACILITATOR_TIMEOUT_MS.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, http, nonceManager, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { describeError } from "@/lib/http/log";

const config = z
  .object({
    FACILITATOR_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte key"),
    X402_RPC_URL: z.url({ protocol: /^https?$/ }),
    X402_NETWORK: z.string().regex(/^eip155:\d+$/, 'must be a CAIP-2 EVM network such as "eip155:8453"'),
    FACILITATOR_PORT: z.coerce.number().int().min(0).max(65_535).default(4022),
    FACILITATOR_HOST: z.string().min(1).default("127.0.0.1"),
    /** Bound of every chain call and of the receipt wait; keep it below the service's X402_TIMEOUT_MS. */
    FACILITATOR_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  })
  .safeParse(process.env);
if (!config.success) {
  // Names and messages only: a value (the key) is never printed.
  for (const issue of config.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
  process.exit(1);
}
const e = config.data;
const network = e.X402_NETWORK as `${string}:${string}`;

// viem's nonce manager hands out nonces locally, so concurrent settles from one key never collide.
const account = privateKeyToAccount(e.FACILITATOR_PRIVATE_KEY as `0x${string}`, { nonceManager });
const chain = defineChain({
  id: Number(network.split(":")[1]),
  name: network,
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [e.X402_RPC_URL] } },
});
const client = createWalletClient({
  account,
  chain,
  pollingInterval: 250,
  transport: http(e.X402_RPC_URL, { timeout: e.FACILITATOR_TIMEOUT_MS, retryCount: 1 }),
}).extend(publicActions);

const signer = toFacilitatorEvmSigner(
  {
    address: account.address,
    getCode: (args) => client.getCode(args),
    readContract: (args) => client.readContract({ ...args, args: args.args ?? [] } as never),
    verifyTypedData: (args) => client.verifyTypedData(args as never),
    writeContract: (args) => client.writeContract({ ...args, args: args.args ?? [] } as never),
    sendTransaction: (args) => client.sendTransaction(args),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
  },
  // A receipt not seen in time is answered as settlement_pending with its hash, not left hanging.
  { confirmationTimeoutMs: e.FACILITATOR_TIMEOUT_MS },
);
const facilitator = new x402Facilitator().register(network, new ExactEvmScheme(signer));

const MAX_BODY_BYTES = 64 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest(413, "body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BadRequest(400, "body is not JSON");
  }
}

class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The payload and requirements of a /verify or /settle body, as the x402 HTTP client sends them. */
async function paymentOf(req: IncomingMessage) {
  const body = (await readJson(req)) as { paymentPayload?: unknown; paymentRequirements?: unknown } | null;
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(body?.paymentPayload) || !isObject(body?.paymentRequirements)) {
    throw new BadRequest(400, "paymentPayload and paymentRequirements are required");
  }
  return [body!.paymentPayload as PaymentPayload, body!.paymentRequirements as PaymentRequirements] as const;
}

/** About what one transferWithAuthorization costs in gas (FiatToken's is ~80k), as the doctor counts it. */
const SETTLE_GAS = 100_000n;

/**
 * Health as a balancer or the service's doctor reads it: the chain answers, and the signer holds gas for at
 * least one settlement. A signer without it would take every payment's authorization and answer it late, so
 * it is unhealthy (503), naming the signer to fund.
 */
async function healthz() {
  const [block, balance, gasPrice] = await Promise.all([
    client.getBlockNumber({ cacheTime: 0 }),
    client.getBalance({ address: account.address }),
    client.getGasPrice(),
  ]);
  const funded = balance >= SETTLE_GAS * (gasPrice > 0n ? gasPrice : 1n);
  const body = {
    status: funded ? "ok" : "unfunded",
    network,
    signer: account.address,
    block: block.toString(),
    ...(funded
      ? {}
      : { detail: `the signer holds no gas for one settlement: send gas to ${account.address}` }),
  };
  if (!funded) throw new Unhealthy(body);
  return body;
}

/** A /healthz answer that says why it is not ok, as a 503. */
class Unhealthy extends Error {
  constructor(readonly body: Record<string, unknown>) {
    super("unhealthy");
  }
}

const routes: Record<string, (req: IncomingMessage) => Promise<unknown>> = {
  "POST /verify": async (req) => facilitator.verify(...(await paymentOf(req))),
  "POST /settle": async (req) => facilitator.settle(...(await paymentOf(req))),
  "GET /supported": async () => facilitator.getSupported(),
  "GET /healthz": healthz,
};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const server = createServer((req, res) => {
  // The path as sent, without parsing it as a URL: a malformed one must be a 404, not a crash.
  const name = `${req.method} ${(req.url ?? "/").split("?")[0]}`;
  const route = routes[name];
  if (!route) return send(res, 404, { error: "not found" });
  route(req).then(
    (body) => send(res, 200, body),
    (error: unknown) => {
      if (error instanceof BadRequest) return send(res, error.status, { error: error.message });
      if (error instanceof Unhealthy) return send(res, 503, error.body);
      // Redacted: a scheme's error can quote the signed authorization.
      console.error(`[facilitator] ${name} failed: ${describeError(error)}`);
      send(res, name === "GET /healthz" ? 503 : 500, { error: "the facilitator could not answer" });
    },
  );
});

server.listen(e.FACILITATOR_PORT, e.FACILITATOR_HOST, () => {
  const { port } = server.address() as { port: number };
  console.log(
    `x402 facilitator for ${network} on http://${e.FACILITATOR_HOST}:${port} (signer ${account.address})`,
  );
});
// Stops taking requests and lets those in flight (a settle waiting for its receipt) answer first.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}
