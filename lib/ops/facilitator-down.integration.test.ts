import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// A remote x402 facilitator that nothing answers at (the discard port), from the first request on, as an
// instance started while its facilitator is down: x402 is out, and only x402. Read lazily by env().
const devnet = workerDevnet();
delete process.env.X402_FACILITATOR_PRIVATE_KEY;
process.env.X402_FACILITATOR_URL = "http://127.0.0.1:9";
process.env.X402_TIMEOUT_MS = "2000";

const url = `${APP}/api/namespace/feedback`;
const report = () => ({
  namespace: uniqueName("nofac"),
  type: "bug",
  title: distinctTitle("Facilitator away"),
  description: "Filed while the x402 facilitator was down.",
});

// A running instance: its database is open. Opening an embedded one takes seconds on a busy machine, and
// /readyz rightly says "unavailable" until it is.
beforeAll(async () => {
  await getDb();
}, 60_000);

describe("an instance whose x402 facilitator is down", () => {
  it("says on /readyz that x402 is out and MPP is not, and stays in rotation (200)", async () => {
    const res = await appFetch(`${APP}/readyz`);
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.status).toBe("degraded");
    expect(body.protocols).toMatchObject({ x402: false, mpp: true });
    expect(body.checks.x402Facilitator).toMatchObject({ ok: false });
    expect(body.checks.x402Chain.ok).toBe(true);
  });

  it("offers MPP alone in its 402, and takes an MPP payment", async () => {
    const asked = await appFetch(url, postJson(report()));
    expect(asked.status).toBe(402);
    expect(asked.headers.get("payment-required")).toBeNull();
    expect(asked.headers.get("www-authenticate")).toContain("Payment ");
    expect((await asked.json()).protocols).toEqual(["mpp"]);
    const payer = createMppFetch(devnet.tempo, devnet.accounts[6]!.privateKey, appFetch);
    const paid = await payer.fetch(url, postJson(report()));
    expect(paid.status).toBe(200);
    expect((await paid.json()).id).toMatch(/^fb_/);
  });
});
