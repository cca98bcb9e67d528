import { decodePaymentRequiredHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { Challenge } from "mppx";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { submitFeedbackSchema } from "@/lib/schemas/feedback";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";
import { claimPayment, failPayment, requestHashOf } from "./ledger";
import { mppProtocol } from "./mpp";
import type { PaymentProtocol } from "./types";
import { x402Protocol } from "./x402";

// One payment sent with requests other than the one it was claimed for buys nothing, and the answer
// says so at once (409), whatever became of its claim: never "send it again later".
const devnet = workerDevnet();
const url = `${APP}/api/namespace/feedback`;
const charge = {
  operation: "feedback",
  method: "POST" as const,
  amountMicroUsd: 10_000n,
  resourceUrl: url,
  description: "Submitting feedback",
};
const body = (title = "One payment, many bodies") => ({
  namespace: uniqueName("reuse"),
  type: "bug",
  title,
  description: "The same credential is sent with another request.",
});

const x402 = devnetX402Payer(devnet, 7, appFetch);
const x402Balance = (() => {
  const reader = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
  return () => reader.balanceOf(x402.address);
})();
const mpp = createMppFetch(devnet.tempo, devnet.accounts[7]!.privateKey, appFetch);
const tempo = tempoClient(devnet.tempo);
const mppBalance = async () =>
  BigInt(
    await tempo.request({
      method: "eth_call",
      params: [
        {
          to: devnet.tempo.currency,
          data: `0x70a08231000000000000000000000000${mpp.address.slice(2).toLowerCase()}`,
        },
        "latest",
      ],
    }),
  );

type Side = {
  protocol: PaymentProtocol;
  header: string;
  balance: () => Promise<bigint>;
  sign: (asked: Response) => Promise<string>;
};
const sides: Side[] = [
  {
    protocol: x402Protocol,
    header: "payment-signature",
    balance: x402Balance,
    sign: (asked) => x402.sign(asked.headers.get("payment-required")!),
  },
  { protocol: mppProtocol, header: "authorization", balance: mppBalance, sign: mpp.createCredential },
];

/**
 * A refusal of a credential carries a fresh challenge of each protocol, so a payer can sign again from
 * this answer alone: MPP's WWW-Authenticate: Payment, and x402's PAYMENT-REQUIRED naming the refusal.
 */
function expectFreshChallenges(res: Response, detail: string) {
  const [mppChallenge, ...more] = Challenge.fromHeadersList(res.headers);
  expect(more).toEqual([]);
  expect(mppChallenge).toMatchObject({ method: "tempo", intent: "charge", realm: new URL(APP).hostname });
  const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
  expect(required).toMatchObject({ x402Version: 2, error: detail });
  expect(required.accepts).toHaveLength(1);
}

async function credentialFor(side: Side, input: unknown) {
  const asked = await appFetch(url, postJson(input));
  expect(asked.status).toBe(402);
  return side.sign(asked);
}

/** The credential claimed for `input` as a request claims it, and left there (its request died). */
async function claimedFor(side: Side, input: ReturnType<typeof body>, credential: string) {
  const request = new Request(url, postJson(input, { [side.header]: credential }));
  const claim = await claimPayment(await getDb(), {
    payment: await side.protocol.read(request, charge),
    operation: "feedback",
    lockKey: null,
    request: { ...input, signedIn: null },
    requestHash: requestHashOf(submitFeedbackSchema.parse(input)),
  });
  if (!claim.ok) throw new Error("not claimed");
  return claim.paymentId;
}

describe.each(sides)("one $protocol.name payment sent with other requests", (side) => {
  const send = (input: unknown, credential: string) =>
    appFetch(url, postJson(input, { [side.header]: credential }));
  const expectAlreadyUsed = async (res: Response, paymentId?: string) => {
    expect(res.status, await res.clone().text()).toBe(409);
    const problem = await res.json();
    expect(problem.detail).toMatch(/another request/);
    if (paymentId) expect(problem.paymentId).toBe(paymentId);
    expectFreshChallenges(res, problem.detail);
  };

  it("that cannot be read is refused with fresh challenges, and a payment signed from that answer is stored", async () => {
    const input = body("Garbage first");
    const garbage = side.protocol.name === "mpp" ? "Payment dGhpcyBpcyBnYXJiYWdl" : "dGhpcyBpcyBnYXJiYWdl";
    const refused = await send(input, garbage);
    expect(refused.status, await refused.clone().text()).toBe(402);
    const problem = await refused.clone().json();
    expect(problem.type).toMatch(/payment-invalid|malformed-credential|invalid/);
    expectFreshChallenges(refused, problem.detail);
    const before = await side.balance();
    const paid = await send(input, await side.sign(refused));
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await side.balance()).toBe(before - 10_000n);
  });

  it("ten copies with ten bodies at once: one is stored, nine are 409, one charge", async () => {
    const inputs = Array.from({ length: 10 }, (_, i) => body(`Copy ${i}`));
    const credential = await credentialFor(side, inputs[0]);
    const before = await side.balance();
    const answers = await Promise.all(inputs.map((input) => send(input, credential)));
    const statuses = answers.map((r) => r.status);
    const texts = await Promise.all(answers.map((r) => r.clone().text()));
    expect(
      statuses.filter((s) => s === 200),
      texts.join("\n"),
    ).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) await expectAlreadyUsed(res);
    expect(await side.balance()).toBe(before - 10_000n);
  });

  it("while its claim for another request is still open: 409, not 'send it again later'", async () => {
    const first = body();
    const credential = await credentialFor(side, first);
    const paymentId = await claimedFor(side, first, credential);
    const before = await side.balance();
    await expectAlreadyUsed(await send(body("Another request"), credential), paymentId);
    expect(await side.balance()).toBe(before);
    const [row] = await (await getDb()).select().from(payments).where(eq(payments.id, paymentId));
    expect(row!.status).toBe("claimed");
  });

  it("once its claim for another request failed, or was stored: 409", async () => {
    const failed = body();
    const credential = await credentialFor(side, failed);
    const paymentId = await claimedFor(side, failed, credential);
    await failPayment(await getDb(), paymentId, "the test failed it");
    await expectAlreadyUsed(await send(body("Another request"), credential), paymentId);

    const stored = body();
    const paid = await credentialFor(side, stored);
    expect((await send(stored, paid)).status).toBe(200);
    const before = await side.balance();
    await expectAlreadyUsed(await send(body("Another request"), paid));
    expect(await side.balance()).toBe(before);
  });
});
