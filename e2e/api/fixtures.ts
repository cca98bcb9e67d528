import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { Webhook } from "standardwebhooks";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { createX402Fetch } from "../../scripts/clients/x402-payer";
import type { DevnetInfo } from "../../scripts/devnet/start-devnet";
import { chainReader } from "../../testing/chain";
import { distinctTitle } from "../../testing/titles";

/** Set by e2e/global-setup.ts: the local chain and the `next start` server on it. */
export const devnet: DevnetInfo = JSON.parse(process.env.E2E_DEVNET ?? "null");
if (!devnet) throw new Error("E2E_DEVNET is not set: run through `playwright test` (global setup)");

/** The exact public origin (localhost:<port>): sign-in proofs are bound to it. */
export const APP = devnet.appUrl;
export const url = (path: string) => `${APP}/api/namespace/${path}`;

export const PRICE = { feedback: 10_000n, register: 1_000_000n } as const;

export const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);

/**
 * One funded wallet seen as a payer (x402) and as a signed-in reader (SIWX).
 * Test files pay from disjoint account indexes so exact balance checks never interleave.
 */
export function wallet(index: number) {
  const account = devnet.accounts[index];
  if (!account) throw new Error(`no devnet account ${index}`);
  const payer = createX402Fetch({
    privateKey: account.privateKey,
    network: devnet.x402.network,
    rpcUrl: devnet.x402.rpcUrl,
    asset: devnet.x402.asset,
  });
  const reader = createSignInFetch(account.privateKey);
  return {
    address: account.address,
    privateKey: account.privateKey,
    /** Pays any x402 challenge it meets. */
    pay: payer.fetch,
    sign: payer.sign,
    /** Signs in whenever it meets "Authentication Required". */
    read: reader.fetch,
    balance: () => chain.balanceOf(account.address),
  };
}
export type Wallet = ReturnType<typeof wallet>;

/** A JSON POST init. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** A random valid namespace name of exactly `length` characters (starts with `prefix`). */
export function uniqueName(prefix = "e2e-", length = 16): string {
  let name = prefix;
  while (name.length < length) name += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return name.slice(0, length).replace(/-$/, "x");
}

export const s = (n: number, c = "x") => c.repeat(n);

/** A minimal valid feedback body, with a title of its own (alike reports are grouped as duplicates). */
export const item = (namespace: string, extra: Record<string, unknown> = {}) => ({
  namespace,
  type: "bug",
  title: distinctTitle("Checkout button does nothing"),
  description: "Clicking Pay on /checkout leaves the page unchanged.",
  ...extra,
});

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Expects a problem+json refusal with the status; returns the body. */
export async function expectProblem(res: Response, status: number) {
  expect(res.status, `${res.url} → ${res.status}`).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = await res.json();
  expect(body.status).toBe(status);
  return body as {
    title: string;
    status: number;
    detail: string;
    errors?: { field: string; message: string }[];
  };
}

/** Expects a 400 naming exactly these fields. */
export async function expectFieldsRefused(res: Response, fields: string[]) {
  const body = await expectProblem(res, 400);
  expect((body.errors ?? []).map((e) => e.field).sort()).toEqual([...fields].sort());
  return body;
}

/** A successful paid response: checks the settlement on chain moved exactly `price` payer → payTo. */
export async function expectSettled(res: Response, payer: string, price: bigint) {
  expect(
    res.status,
    `paid call answered ${res.status}: ${res.status === 200 ? "" : await res.clone().text()}`,
  ).toBe(200);
  const header = res.headers.get("payment-response");
  expect(header).toBeTruthy();
  const settled = decodePaymentResponseHeader(header!);
  expect(settled.success).toBe(true);
  expect(settled.network).toBe(devnet.x402.network);
  expect(settled.payer?.toLowerCase()).toBe(payer.toLowerCase());
  const onChain = await chain.transfersIn(settled.transaction);
  expect(onChain.status).toBe("success");
  expect(onChain.transfers).toEqual([{ from: payer, to: devnet.x402.payTo, value: price }]);
  return settled;
}

/** An unpaid 402: the decoded PAYMENT-REQUIRED header. */
export async function challenge(path: string, body: unknown) {
  const res = await fetch(url(path), postJson(body));
  expect(res.status).toBe(402);
  return res.headers.get("payment-required")!;
}

export const decodeRequired = decodePaymentRequiredHeader;

/** Submits a feedback item, paid and settled; returns the response body. */
export async function submit(w: Wallet, body: Record<string, unknown>) {
  const res = await w.pay(url("feedback"), postJson(body));
  await expectSettled(res, w.address, PRICE.feedback);
  return (await res.json()) as { id: string; namespace: string; registered: boolean; createdAt: string };
}

/** Registers a namespace, paid and settled; returns the response body. */
export async function register(w: Wallet, body: Record<string, unknown>) {
  const res = await w.pay(url("register"), postJson(body));
  await expectSettled(res, w.address, PRICE.register);
  return (await res.json()) as {
    namespace: string;
    ownerWallet: string;
    existingFeedbackLinked: number;
    createdAt: string;
  };
}

export const ids = (page: { feedback: { id: string }[] }) => page.feedback.map((f) => f.id);

type CallbackEvent = { type: string; timestamp: string; data: Record<string, unknown> };

/**
 * A reporter's callback receiver on 127.0.0.1 (which the devnet allows): `next` waits for a delivery of
 * `type` sent by the service's own worker, and verifies its signature with `secret` (Standard Webhooks).
 */
export async function startCallbackReceiver() {
  const bodies: { body: string; headers: Record<string, string> }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      bodies.push({ body, headers: req.headers as Record<string, string> });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    async next(secret: string, type: string): Promise<CallbackEvent> {
      let found: CallbackEvent | undefined;
      await expect
        .poll(
          () => {
            found = bodies
              .map((b) => new Webhook(secret).verify(b.body, b.headers) as CallbackEvent)
              .find((e) => e.type === type);
            return found !== undefined;
          },
          { timeout: 30_000, message: `a ${type} delivery` },
        )
        .toBe(true);
      return found!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
