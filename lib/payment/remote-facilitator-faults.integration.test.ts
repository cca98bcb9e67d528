import { afterAll, describe, expect, it } from "vitest";
import { recoverPaidWrites } from "@/lib/domain/paid-operations";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { type FrontFault, PASS, startFacilitatorFront } from "@/testing/facilitator-front";
import { startFacilitatorProcess } from "@/testing/facilitator-process";
import { answerChecks, paidCall, until } from "@/testing/paid-call";
import { startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// The service settles through scripts/facilitator.ts, a process of its own, behind a front that can
// delay, refuse or fail its answers. The facilitator reaches the chain through an RPC proxy that can
// hold its calls once it has sent a transaction, so it can be killed between sending and answering.
const devnet = workerDevnet();
const WALLET = 4;
let hold: { until: Promise<void>; release: () => void; sent: boolean } | null = null;
const rpc = await startRpcProxy(devnet.x402.rpcUrl, ({ method }) => {
  if (hold?.sent) return { kind: "hold", until: hold.until };
  if (hold && method.startsWith("eth_sendRawTransaction")) hold.sent = true;
  return { kind: "pass" };
});
const start = (port?: number) =>
  startFacilitatorProcess({
    rpcUrl: rpc.url,
    network: devnet.x402.network,
    privateKey: extraFacilitators[1]!.privateKey,
    port,
  });
let facilitator = await start();
const front = await startFacilitatorFront(facilitator.url);
delete process.env.X402_FACILITATOR_PRIVATE_KEY;
process.env.X402_FACILITATOR_URL = front.url;
process.env.X402_TIMEOUT_MS = "3000";
afterAll(async () => {
  delete process.env.X402_FACILITATOR_URL;
  delete process.env.X402_TIMEOUT_MS;
  hold?.release();
  await Promise.all([facilitator.crash(), front.close(), rpc.close()]);
});

const { balance, paid, problem, PRICE } = answerChecks(devnet, WALLET);
const report = () => ({
  namespace: uniqueName("faults"),
  type: "bug",
  title: distinctTitle("Facilitator fault"),
  description: "Paid while the facilitator misbehaves.",
});
const submission = (lifetimeSeconds?: number) =>
  paidCall(devnet, WALLET, "feedback", report(), lifetimeSeconds);
const registration = () => paidCall(devnet, WALLET, "register", { namespace: uniqueName("faults") });
const on = (route: string, fault: FrontFault) =>
  front.setPolicy((call) => (call.route === route ? fault : { kind: "pass" }));
const SETTLE = "POST /settle";
const VERIFY = "POST /verify";

// Claims one case leaves open and the last one finishes, once recovery or the same request can decide.
type Call = Awaited<ReturnType<typeof submission>>;
let downClaim: Call;
let lateClaim: Call;
let failedClaim: Call;

describe("a remote facilitator that is down, slow or failing", () => {
  it("cannot say what it supports at a cold start: x402 is left out, MPP still offered, then both once it can", async () => {
    // The first request of this process: its resource server has not asked the facilitator yet.
    on("GET /supported", { kind: "answer", status: 503, body: { error: "starting" } });
    const ask = () => appFetch(`${APP}/api/namespace/feedback`, postJson(report()));
    const cold = await ask();
    expect(cold.status).toBe(402);
    expect(cold.headers.get("payment-required")).toBeNull();
    expect(cold.headers.get("www-authenticate")).toContain('method="tempo"');
    expect((await cold.json()).protocols).toEqual(["mpp"]);
    front.setPolicy(PASS);
    const warm = await ask();
    expect(warm.headers.get("payment-required")).not.toBeNull();
    expect((await warm.json()).protocols).toEqual(["x402", "mpp"]);
  });

  it("is killed (kill -9) after it sent a settlement, before answering: the chain proves it, stored once", async () => {
    const call = await submission();
    const before = await balance();
    let release = () => {};
    hold = { until: new Promise<void>((r) => (release = r)), release: () => release(), sent: false };
    const answer = call.send();
    await until(() => call.spent(), "the settlement to be mined");
    await facilitator.crash();
    hold.release();
    hold = null;
    const tx = await paid(await answer);
    expect(await balance()).toBe(before - PRICE);
    expect(await call.row()).toMatchObject({ status: "fulfilled", txRef: tx });
    expect(await call.stored()).toBe(1);
    facilitator = await start(facilitator.port);
  });

  it("is down: what was never sent is a 503 retry with nothing claimed; what may have been is pending", async () => {
    await facilitator.crash();
    const before = await balance();
    // A registration is verified before its claim: nothing is claimed, nothing can move.
    const register = await registration();
    await problem(await register.send(), 503, "payment-unavailable");
    expect(await register.row()).toBeUndefined();
    // A submission is claimed, then settled: the front's 502 cannot say whether the facilitator got it.
    downClaim = await submission();
    const { paymentId } = await problem(await downClaim.send(), 503, "payment-pending");
    expect(await downClaim.row()).toMatchObject({ id: paymentId, status: "claimed" });
    // Connection refused: the request reached nobody, so the claim is let go at once. (One turn of the
    // event loop first, so the service's client sees its pooled connections to the front closed.)
    await front.refuse();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const refused = await submission();
    await problem(await refused.send(), 503, "payment-unavailable");
    expect(await refused.row()).toBeUndefined();
    await front.accept();
    for (const call of [register, downClaim, refused]) expect(await call.spent()).toBe(false);
    expect(await balance()).toBe(before);

    facilitator = await start(facilitator.port);
    await paid(await register.send(), OPERATIONS.register.price);
    await paid(await refused.send());
  });

  it("is slow past the service's timeout: money moved in time is proven at once, money moved later is pending", async () => {
    const before = await balance();
    on(SETTLE, { kind: "late", ms: 4_000 });
    await paid(await (await submission()).send());
    // Held well past the service's 3 s, so the service has asked the chain before the facilitator sends.
    on(SETTLE, { kind: "hold", ms: 6_000 });
    lateClaim = await submission();
    const { paymentId } = await problem(await lateClaim.send(), 503, "payment-pending");
    expect(await lateClaim.row()).toMatchObject({ id: paymentId, status: "claimed" });
    expect(await lateClaim.stored()).toBe(0);
    on(VERIFY, { kind: "hold", ms: 4_000 });
    const register = await registration();
    await problem(await register.send(), 503, "payment-unavailable");
    expect(await register.row()).toBeUndefined();
    front.setPolicy(PASS);
    await until(() => lateClaim.spent(), "the late settlement to be mined");
    expect(await balance()).toBe(before - 2n * PRICE);
  });

  it("answers 5xx: after it sent, the chain proves the payment; before, the claim is pending", async () => {
    const before = await balance();
    on(SETTLE, { kind: "rewrite", status: 502, body: () => ({ error: "bad gateway" }) });
    await paid(await (await submission()).send());
    on(SETTLE, { kind: "answer", status: 500, body: { error: "internal error" } });
    failedClaim = await submission(10);
    const { paymentId } = await problem(await failedClaim.send(), 503, "payment-pending");
    expect(await failedClaim.row()).toMatchObject({ id: paymentId, status: "claimed" });
    on(VERIFY, { kind: "answer", status: 500, body: { error: "internal error" } });
    const register = await registration();
    await problem(await register.send(), 503, "payment-unavailable");
    expect(await register.row()).toBeUndefined();
    front.setPolicy(PASS);
    expect(await balance()).toBe(before - PRICE);
  });

  it("once it is back, recovery and the same requests finish every pending claim, each charged at most once", async () => {
    const before = await balance();
    // Recovery reads the chain: the late settlement is stored, the unsent one fails once it expired.
    await until(async () => {
      await recoverPaidWrites();
      const [late, failed] = await Promise.all([lateClaim.row(), failedClaim.row()]);
      return late?.status === "fulfilled" && failed?.status === "failed";
    }, "recovery to decide the open claims");
    expect(await lateClaim.stored()).toBe(1);
    await paid(await lateClaim.send());
    await problem(await failedClaim.send(), 402, "settlement-failed");
    expect(await failedClaim.stored()).toBe(0);
    expect(await failedClaim.spent()).toBe(false);
    // The claim made while the facilitator was down is this request's own: sent again once it is idle
    // past a live attempt (three X402_TIMEOUT_MS), it is taken over and settled now; until then, pending.
    let answer: Response | undefined;
    await until(async () => {
      answer = await downClaim.send();
      return answer.status !== 503;
    }, "the claim to be taken over");
    await paid(answer!);
    expect(await downClaim.stored()).toBe(1);
    expect(await balance()).toBe(before - PRICE);
  });
});
