import http from "node:http";
import type { AddressInfo } from "node:net";
import type { DevnetInfo } from "../../scripts/devnet/start-devnet";
import { type FaultPolicy, PASS, type RpcProxy } from "../../testing/rpc-proxy";
import { distinctTitle } from "../../testing/titles";
import { type Logical, paidCall, type Tally, type Wallet, wallet } from "./workload";

/**
 * Every transaction reaches the chain and its answer is lost, and so is every way of finding out after
 * (receipts, logs, the transaction): a paid call ends 503 "pending" with its claim left open, as when a
 * server dies mid-payment. Everything a payment needs before it sends still works.
 */
const LOSE_WHAT_WAS_SENT: FaultPolicy = ({ method }) => {
  if (method.startsWith("eth_sendRawTransaction")) return { kind: "cut-after-forward" };
  if (["eth_getTransactionReceipt", "eth_getTransactionByHash", "eth_getLogs"].includes(method)) {
    return { kind: "http-500" };
  }
  return { kind: "pass" };
};

/** One paid request signed once and sent once, whatever the answer: an agent that gave up on it. */
async function payOnce(
  origin: string,
  request: {
    kind: Logical["kind"];
    protocol: Logical["protocol"];
    path: string;
    body: unknown;
    payer: Wallet;
  },
): Promise<{ logical: Logical; status: number }> {
  const post = (headers: Record<string, string> = {}) =>
    fetch(`${origin}${request.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(90_000),
    });
  const asked = await post();
  if (asked.status !== 402) throw new Error(`${request.kind}: the unpaid ask answered ${asked.status}`);
  const signed = await request.payer.sign(request.protocol, asked);
  const status = await post(signed.headers).then(
    (r) => r.status,
    () => 0,
  );
  const { kind, protocol } = request;
  return {
    logical: { kind, protocol, keys: [signed.key], outcome: status === 200 ? "stored" : "abandoned" },
    status,
  };
}

/** A webhook receiver on 127.0.0.1 that answers 200 and keeps the id and type of what it got. */
export async function startReceiver() {
  const received: { id: string; type: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), type: JSON.parse(body).type });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Through `origin`: a namespace with a webhook and two reports, served as usual; then, with every answer
 * from the chains lost (`proxies` are the servers'), five reports and two rewarded resolves whose agents
 * give up after one try. Their money moved; only recovery can store what they paid for.
 */
export async function leaveWorkOpen(
  origin: string,
  devnet: DevnetInfo,
  proxies: RpcProxy[],
  webhookUrl: string,
) {
  const [a1, a2, a3, m1, m2, ownerAccount] = devnet.accounts.map((a) => wallet(devnet, a.privateKey));
  const owner = ownerAccount!;
  const tally: Tally = { attempts: 0, anomalies: [], answers: {} };
  const namespace = `worker-${Date.now().toString(36)}`;
  const report = (n: number) => ({
    namespace,
    type: "bug",
    title: distinctTitle(`Worker report ${n}`),
    description: "Filed while the web servers ran no background work.",
  });
  const serve = (request: Parameters<typeof paidCall>[2]) =>
    paidCall({ pick: () => origin }, tally, request, Date.now() + 120_000);
  const path = "/api/namespace/feedback";
  const served = [
    await serve({
      kind: "register",
      protocol: "x402",
      path: "/api/namespace/register",
      body: { namespace, webhookUrl },
      payer: owner,
    }),
    await serve({ kind: "feedback", protocol: "x402", path, body: report(1), payer: a1! }),
    await serve({ kind: "feedback", protocol: "mpp", path, body: report(2), payer: m1! }),
  ];
  const [, first, second] = served.map((s) => s.result?.id as string);

  for (const proxy of proxies) proxy.setPolicy(LOSE_WHAT_WAS_SENT);
  const feedback = (payer: Wallet | undefined, protocol: "x402" | "mpp", n: number) =>
    payOnce(origin, { kind: "feedback", protocol, path, body: report(n), payer: payer! });
  const resolve = (feedbackId: string | undefined, protocol: "x402" | "mpp", rewardAmount: string) =>
    payOnce(origin, {
      kind: "resolve",
      protocol,
      path: "/api/namespace/resolve",
      body: { feedbackId, message: "Thanks", rewardAmount },
      payer: owner,
    });
  const left = await Promise.all([
    feedback(a2, "x402", 10),
    feedback(a3, "x402", 11),
    feedback(a1, "x402", 12),
    feedback(m2, "mpp", 13),
    feedback(m1, "mpp", 14),
    resolve(first, "x402", "0.01"),
    resolve(second, "mpp", "0.02"),
  ]).finally(() => {
    for (const proxy of proxies) proxy.setPolicy(PASS);
  });
  return { served, left, anomalies: tally.anomalies };
}
