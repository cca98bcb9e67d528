import { Credential } from "mppx";
import { createMppFetch } from "../../scripts/clients/mpp-payer";
import { createX402Fetch } from "../../scripts/clients/x402-payer";
import type { DevnetInfo } from "../../scripts/devnet/start-devnet";

/** One thing an agent wanted done and paid for, with every credential it signed for it. */
export type Logical = {
  kind: "feedback" | "register" | "resolve";
  protocol: "x402" | "mpp";
  /** The ledger keys of the credentials it signed (a new one only after a 402). */
  keys: string[];
  /** stored (200), payout-pending (resolved, reward on its way), refunded, or abandoned. */
  outcome?: "stored" | "payout-pending" | "refunded" | "abandoned";
  result?: Record<string, unknown>;
};

export type Wallet = {
  address: `0x${string}`;
  /** The credential header for a 402, and its ledger key. */
  sign(protocol: "x402" | "mpp", asked: Response): Promise<{ headers: Record<string, string>; key: string }>;
};

/** A devnet wallet that pays x402 on the EVM chain and MPP on Tempo, with the official clients. */
export function wallet(devnet: DevnetInfo, privateKey: `0x${string}`): Wallet {
  const x402 = createX402Fetch({
    privateKey,
    network: devnet.x402.network,
    rpcUrl: devnet.x402.rpcUrl,
    asset: devnet.x402.asset,
  });
  const mpp = createMppFetch(devnet.tempo, privateKey, fetch);
  return {
    address: x402.address,
    async sign(protocol, asked): Promise<{ headers: Record<string, string>; key: string }> {
      if (protocol === "x402") {
        const header = await x402.sign(asked.headers.get("payment-required")!);
        const auth = JSON.parse(Buffer.from(header, "base64").toString()).payload.authorization;
        const key = `x402:${devnet.x402.network}:${devnet.x402.asset.toLowerCase()}:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`;
        return { headers: { "payment-signature": header }, key };
      }
      const header = await mpp.createCredential(asked);
      return {
        headers: { authorization: header },
        key: `mpp:${Credential.deserialize(header).challenge.id}`,
      };
    },
  };
}

/** Where requests go: any instance that is up, as a load balancer would send them. */
export type Target = { pick(): string | null };

export type Tally = { attempts: number; anomalies: string[]; answers: Record<string, number> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Answer = { status: number; headers: Headers; body: string };

/** One request, its answer read whole; null when no whole answer came (refused, reset, cut, timed out). */
async function post(
  target: Target,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer | null> {
  const base = target.pick();
  if (!base) return null;
  try {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  } catch {
    return null; // the outcome is unknown, as after a crash
  }
}

function parsed(answer: Answer): Record<string, unknown> {
  try {
    return JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * One paid request, followed the way the service's answers tell an agent to: a 503 "pending" or a
 * lost answer → the same request with the same payment again, later; a 402 → sign a new payment;
 * a 200 → done. Anything else is an anomaly. Gives up at `giveUpAt`.
 */
export async function paidCall(
  target: Target,
  tally: Tally,
  request: {
    kind: Logical["kind"];
    protocol: Logical["protocol"];
    path: string;
    body: unknown;
    payer: Wallet;
  },
  giveUpAt: number,
): Promise<Logical> {
  const logical: Logical = { kind: request.kind, protocol: request.protocol, keys: [] };
  let credential: Record<string, string> | null = null;
  while (Date.now() < giveUpAt) {
    if (!credential) {
      const asked = await post(target, request.path, request.body);
      if (asked?.status !== 402) {
        if (asked && asked.status < 500) {
          tally.anomalies.push(`${request.kind}: the unpaid ask answered ${asked.status} ${asked.body}`);
          return logical;
        }
        await sleep(500);
        continue;
      }
      const challenge = new Response(asked.body, { status: 402, headers: asked.headers });
      // Signing asks the agent's own RPC (MPP fills its transaction); a slow one is the agent's problem.
      const signed = await request.payer.sign(request.protocol, challenge).catch(() => null);
      if (!signed) {
        await sleep(500);
        continue;
      }
      logical.keys.push(signed.key);
      credential = signed.headers;
    }
    tally.attempts++;
    const res = await post(target, request.path, request.body, credential);
    const status = res?.status ?? 0;
    const problem = res && status !== 200 ? (parsed(res) as { type?: string }) : {};
    const answer = `${status}${problem.type ? ` ${problem.type.replace(/^.*\//, "")}` : ""}`;
    tally.answers[answer] = (tally.answers[answer] ?? 0) + 1;
    if (res && status === 200) {
      logical.outcome = "stored";
      logical.result = parsed(res);
      return logical;
    }
    if (status === 503 && problem.type?.endsWith("payout-unavailable") && request.kind === "resolve") {
      logical.outcome = "payout-pending";
      return logical;
    }
    if (status === 502 && problem.type?.endsWith("reward-failed")) {
      logical.outcome = "refunded";
      return logical;
    }
    if (status === 402) {
      credential = null; // nothing of this credential's stayed with the service: sign a new one
      continue;
    }
    // A 500 is never an answer the service should give; the agent still retries it like a lost answer.
    if (status === 500) tally.anomalies.push(`${request.kind}/${request.protocol}: answered 500`);
    if (status !== 0 && status !== 503 && status < 500) {
      const detail = (problem as { detail?: string }).detail;
      tally.anomalies.push(
        `${request.kind}/${request.protocol}: answered ${answer}${detail ? ` (${detail})` : ""}`,
      );
      return logical;
    }
    await sleep(700 + Math.random() * 800);
  }
  logical.outcome = "abandoned";
  return logical;
}
