import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/db/client";
import { isDatabaseUnreachable } from "@/lib/db/errors";
import { recoverPaidWrites } from "@/lib/domain/paid-operations";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { freshPostgres } from "@/testing/fresh-postgres";
import { paidCall, until } from "@/testing/paid-call";
import { type FaultPolicy, PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { startTcpProxy } from "@/testing/tcp-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// PostgreSQL behind a proxy that can drop it: while the database cannot be reached, every answer is a 503
// with Retry-After telling the client to send the same request (and payment) again, never a 500; once it
// is back, that same payment gets its answer and is charged once. PostgreSQL only: the embedded database
// lives in the process and cannot become unreachable.
const devnet = workerDevnet();
const SEND_AGAIN = "Send this same request with the same payment again later for its answer.";
const feedbackUrl = `${APP}/api/namespace/feedback`;
const report = () => ({
  namespace: uniqueName("outage"),
  type: "bug",
  title: distinctTitle("Database away"),
  description: "Filed while the database was away.",
});

const enabled = Boolean(process.env.DATABASE_URL);
const target = enabled ? await freshPostgres("outage") : undefined;
const database = await startTcpProxy(target ? new URL(target.url) : { hostname: "127.0.0.1", port: "9" });
const evm = await startRpcProxy(devnet.x402.rpcUrl);
if (target) {
  // The service reads its configuration on first use: its database through the proxy, its chain too.
  const url = new URL(target.url);
  url.host = `${database.host}:${database.port}`;
  process.env.DATABASE_URL = url.toString();
  process.env.X402_RPC_URL = evm.url;
  // Recovery takes up a claim idle three times this long: seconds, not a minute.
  process.env.X402_TIMEOUT_MS = "3000";
}
/** Runs one step of the teardown, saying on stderr which one is still running after 15 s. */
async function step(name: string, run: () => Promise<unknown>) {
  const slow = setTimeout(() => console.warn(`[teardown] ${name} still running after 15 s`), 15_000);
  try {
    await run();
  } finally {
    clearTimeout(slow);
  }
}
afterAll(async () => {
  await step("closing the database handle", closeDb);
  await step("closing the proxies", () => Promise.all([database.close(), evm.close()]));
  await step("dropping the database", async () => target?.drop());
});

/** A 503 that names no internal error and tells the client to send the same request again. */
async function expectSendAgain(res: Response) {
  const body = await res.json();
  expect({ status: res.status, type: body.type }).toEqual({ status: 503, type: expect.any(String) });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(body.detail).toContain(SEND_AGAIN);
  return body;
}

describe.skipIf(!enabled)("a database that goes away", () => {
  it("answers an ask, a sign-in read and a paid x402 call with 503 and Retry-After, then the same payment pays once", async () => {
    const call = await paidCall(devnet, 3, "feedback", report());
    await database.cut();
    try {
      const asked = await appFetch(feedbackUrl, postJson(report()));
      expect([402, 503]).toContain(asked.status);
      if (asked.status === 503) await expectSendAgain(asked);
      const reader = createSignInFetch(devnet.accounts[3]!.privateKey, appFetch);
      const listed = await reader.fetch(`${APP}/api/namespace/status`);
      expect([401, 402, 503]).toContain(listed.status);
      expect(listed.status).not.toBe(500);
      await expectSendAgain(await call.send());
      expect(await call.spent()).toBe(false);
    } finally {
      await database.heal();
    }
    const paid = await call.send();
    expect(paid.status).toBe(200);
    expect(await call.spent()).toBe(true);
    expect(await call.stored()).toBe(1);
  });

  it("answers a paid MPP call whose database went away with 503, and the same credential pays once when it is back", async () => {
    let credential = "";
    const cutting: typeof fetch = async (input, init) => {
      const auth = new Headers(init?.headers).get("authorization");
      if (auth?.startsWith("Payment ")) {
        credential = auth;
        await database.cut();
      }
      return appFetch(input, init);
    };
    const payer = createMppFetch(devnet.tempo, devnet.accounts[4]!.privateKey, cutting);
    const body = report();
    try {
      await expectSendAgain(await payer.fetch(feedbackUrl, postJson(body)));
    } finally {
      await database.heal();
    }
    const again = await appFetch(feedbackUrl, postJson(body, { authorization: credential }));
    expect(again.status).toBe(200);
    const { id } = await again.json();
    const resent = await appFetch(feedbackUrl, postJson(body, { authorization: credential }));
    expect((await resent.json()).id).toBe(id);
  });

  it("answers a call whose database went away once its payment was on chain with 503, then the stored item", async () => {
    const call = await paidCall(devnet, 5, "feedback", report());
    // The database goes away the moment the payment is broadcast: the charge lands, the write cannot.
    const cutOnSend: FaultPolicy = ({ method }) => {
      if (method.startsWith("eth_sendRawTransaction")) void database.cut();
      return { kind: "pass" };
    };
    evm.setPolicy(cutOnSend);
    try {
      await expectSendAgain(await call.send());
      evm.setPolicy(PASS);
      await expectSendAgain(await call.send());
    } finally {
      evm.setPolicy(PASS);
      await database.heal();
    }
    expect(await call.spent()).toBe(true);
    // Back: recovery stores the write from the ledger, and the same payment sent again gets it.
    let stored = await call.send();
    await until(async () => {
      if (stored.status === 503) {
        // A pass that finds the database not back yet (a connection the cut left behind, refused) is the
        // outage itself, not a failure: the next pass tries again, as the background work would.
        await recoverPaidWrites().catch((error: unknown) => {
          if (!isDatabaseUnreachable(error)) throw error;
        });
        stored = await call.send();
      }
      return stored.status !== 503;
    }, "the paid write to be stored");
    expect(stored.status).toBe(200);
    expect(await call.stored()).toBe(1);
  });
});
