/**
 * `npm run demo`: an agent's whole journey against the running devnet (`npm run dev` first) — pays
 * with the official x402 client from a funded test wallet, registers a namespace, submits feedback,
 * lists it with a wallet sign-in and resolves one item.
 */
import { readFileSync } from "node:fs";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { Receipt } from "mppx";
import { createMppFetch } from "./clients/mpp-payer";
import { createSignInFetch } from "./clients/siwx-fetch";
import { createX402Fetch } from "./clients/x402-payer";
import type { DevnetInfo } from "./devnet/start-devnet";

const devnet = JSON.parse(readFileSync(".devnet/devnet.json", "utf8")) as DevnetInfo;
const wallet = devnet.accounts[0]!;
const base = devnet.appUrl;
const pay = createX402Fetch({
  privateKey: wallet.privateKey as `0x${string}`,
  network: devnet.x402.network as `${string}:${string}`,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
});
const signedIn = createSignInFetch(wallet.privateKey as `0x${string}`);
// A second agent that speaks only MPP, paying USDC.e on Tempo.
const mppAgent = createMppFetch(devnet.tempo, devnet.accounts[1]!.privateKey as `0x${string}`, fetch);
const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function step(label: string, response: Promise<Response>) {
  const res = await response;
  const body = await res.json();
  const x402Receipt = res.headers.get("payment-response");
  const mppReceipt = res.headers.get("payment-receipt");
  const paid = x402Receipt
    ? `  paid with x402, tx ${decodePaymentResponseHeader(x402Receipt).transaction}`
    : mppReceipt
      ? `  paid with MPP, tx ${Receipt.deserialize(mppReceipt).reference}`
      : "";
  console.log(`\n${label} → ${res.status}${paid}\n${JSON.stringify(body, null, 2)}`);
  if (!res.ok) process.exit(1);
  return body;
}

const namespace = `demo-${Date.now().toString(36)}`;
console.log(`Paying from test wallet ${wallet.address} on ${devnet.x402.network}`);

await step(
  "Submit feedback before the namespace exists (0.01 USD)",
  pay.fetch(
    `${base}/api/namespace/feedback`,
    json({
      namespace,
      type: "bug",
      title: "Search returns nothing for quoted phrases",
      description: 'Searching for "dark mode" returns no results although matching items exist.',
      severity: "medium",
      steps: ["Open /search", 'Type "dark mode" with the quotes', "Press Enter"],
      metadata: { page: "https://example.com/search" },
    }),
  ),
);
await step(
  "Register the namespace (1 USD)",
  pay.fetch(`${base}/api/namespace/register`, json({ namespace, description: "Demo app" })),
);
const submitted = await step(
  "Submit a feature request (0.01 USD)",
  pay.fetch(
    `${base}/api/namespace/feedback`,
    json({
      namespace,
      type: "feature",
      title: "Export the inbox as CSV",
      description: "Owners want to export feedback to a spreadsheet once a week.",
    }),
  ),
);
await step(
  "List the inbox (free, signed in)",
  signedIn.fetch(`${base}/api/namespace/list?namespace=${namespace}`),
);
await step(
  "Resolve the feature request (free, signed in)",
  signedIn.fetch(
    `${base}/api/namespace/resolve`,
    json({ feedbackId: submitted.id, message: "Shipped in v2.3, thanks!" }),
  ),
);
const viaMpp = await step(
  "Another agent submits a bug, paying with MPP on Tempo (0.01 USD)",
  mppAgent.fetch(
    `${base}/api/namespace/feedback`,
    json({
      namespace,
      type: "bug",
      title: "Export drops non-ASCII characters",
      description: "Titles with accents come out as question marks in the CSV export.",
      severity: "high",
    }),
  ),
);
await step(
  "Resolve it with a 0.1 USD tip, forwarded to that agent on Tempo (pays 0.1 USD)",
  pay.fetch(
    `${base}/api/namespace/resolve`,
    json({ feedbackId: viaMpp.id, message: "Fixed, thank you!", rewardAmount: "0.1" }),
  ),
);
await step(
  "Read back what this wallet submitted (free, signed in)",
  signedIn.fetch(`${base}/api/namespace/status?namespace=${namespace}`),
);
