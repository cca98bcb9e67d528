import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { invalidSubmitBody, normalised, validSubmitBody } from "@/testing/feedback-arbitraries";
import { workerDevnet } from "@/testing/worker-devnet";

const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const key = devnet.accounts[7]!.privateKey as `0x${string}`;
const payer = createX402Fetch({
  privateKey: key,
  network: devnet.x402.network as `${string}:${string}`,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});
const reader = createSignInFetch(key, appFetch);
const url = `${APP}/api/namespace/feedback`;

describe("submit over HTTP, property-based", () => {
  it("refuses every invalid body with a 400 naming the field, even with a valid payment, and never charges", async () => {
    const valid = { namespace: "prop-test", type: "bug", title: "Valid", description: "A valid body now." };
    const asked = await appFetch(url, postJson(valid));
    const signature = await payer.sign(asked.headers.get("payment-required")!);
    const before = await chain.balanceOf(payer.address);
    await fc.assert(
      fc.asyncProperty(invalidSubmitBody, async ({ body, field, what }) => {
        const res = await appFetch(url, postJson(body, { "payment-signature": signature }));
        expect(res.status, what).toBe(400);
        const problem = await res.json();
        expect(
          problem.errors.some((e: { field: string }) => e.field === field || e.field.startsWith(`${field}.`)),
          `${what}: ${JSON.stringify(problem.errors)}`,
        ).toBe(true);
      }),
      { numRuns: 40 },
    );
    expect(await chain.balanceOf(payer.address)).toBe(before);
    // The credential was never claimed either: it still pays for a valid body, exactly once.
    const res = await appFetch(url, postJson(valid, { "payment-signature": signature }));
    expect(res.status).toBe(200);
    expect(await chain.balanceOf(payer.address)).toBe(before - 10_000n);
  });

  it("stores every valid body paid for and reads it back field for field", async () => {
    await fc.assert(
      fc.asyncProperty(validSubmitBody, async (body) => {
        const sent = JSON.parse(JSON.stringify(body));
        const res = await payer.fetch(url, postJson(sent));
        expect(res.status).toBe(200);
        const { id } = await res.json();
        const read = await reader.fetch(`${url}?id=${encodeURIComponent(id)}`);
        expect(read.status).toBe(200);
        const record = await read.json();
        const expected = normalised(sent);
        const stored = Object.fromEntries(Object.keys(expected).map((k) => [k, record[k]]));
        expect(stored).toEqual(expected);
        expect(record.submitterWallet).toBe(payer.address);
      }),
      { numRuns: 8 },
    );
  });
});
