import { createTestClient, http } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { recoverPaidWrites } from "@/lib/domain/paid-operations";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { devnetAppEnv } from "@/scripts/devnet/app-env";
import { startDevnet } from "@/scripts/devnet/start-devnet";
import { uniqueName } from "@/testing/app-fetch";
import { type FrontFault, PASS, startFacilitatorFront } from "@/testing/facilitator-front";
import { startFacilitatorProcess } from "@/testing/facilitator-process";
import { answerChecks, paidCall, until } from "@/testing/paid-call";
import { distinctTitle } from "@/testing/titles";
import { waitingTransaction } from "@/testing/txpool";

// A hosted facilitator broadcasts the settlement, then answers a refusal or a revert before any block holds
// it. On a devnet of this file's own with instant mining off (a real chain's pace, mined here by hand), the
// service must keep the claim until the chain decides, never tell the payer it was not charged.
const own = await startDevnet({ appUrl: "http://localhost:3000" });
const devnet = own.info;
const chain = createTestClient({ mode: "anvil", transport: http(devnet.x402.rpcUrl) });
const facilitator = await startFacilitatorProcess({
  rpcUrl: devnet.x402.rpcUrl,
  network: devnet.x402.network,
  privateKey: extraFacilitators[0]!.privateKey,
});
const front = await startFacilitatorFront(facilitator.url);
// The service reads its configuration on first use: this devnet, through the front, recovery within seconds.
Object.assign(process.env, devnetAppEnv(devnet), {
  X402_FACILITATOR_URL: front.url,
  X402_TIMEOUT_MS: "3000",
});
delete process.env.X402_FACILITATOR_PRIVATE_KEY;
afterAll(async () => {
  await Promise.all([facilitator.crash(), front.close()]);
  await own.stop();
});

const WALLET = 5;
const { balance, paid, problem, PRICE } = answerChecks(devnet, WALLET);
const network = devnet.x402.network;
const submission = () =>
  paidCall(devnet, WALLET, "feedback", {
    namespace: uniqueName("pending"),
    type: "bug",
    title: distinctTitle("Settled in a later block"),
    description: "Paid through a facilitator that answers before its transaction is mined.",
  });

const answerEarly = (body: () => unknown): FrontFault => ({
  kind: "answer-early",
  ms: 300,
  status: 400,
  body,
});
const LIES: Record<string, FrontFault> = {
  "a refusal": answerEarly(() => ({
    success: false,
    errorReason: "invalid_exact_evm_insufficient_balance",
    transaction: "",
    network,
  })),
  "a revert naming its unmined transaction": answerEarly(async () => ({
    success: false,
    errorReason: "invalid_exact_evm_transaction_failed",
    transaction: await waitingTransaction(chain),
    network,
  })),
};

describe("a hosted facilitator that answers before its transaction is mined", () => {
  it.each(Object.keys(LIES))(
    "answers %s: the claim stays open, and the chain decides it paid, once",
    async (lie) => {
      const before = await balance();
      await chain.setAutomine(false);
      await chain.setIntervalMining({ interval: 0 });
      try {
        front.setPolicy((call) => (call.route === "POST /settle" ? LIES[lie]! : { kind: "pass" }));
        const call = await submission();
        const { paymentId } = await problem(await call.send(), 503, "payment-pending");
        expect(await call.row()).toMatchObject({ id: paymentId, status: "claimed" });
        expect(await call.stored()).toBe(0);
        front.setPolicy(PASS);
        // The block comes: the transfer the facilitator denied is on chain, and its write is stored once.
        // The lie may come before the facilitator broadcast (a busy machine): the block waits for the send.
        await waitingTransaction(chain);
        await chain.mine({ blocks: 1 });
        expect(await call.spent()).toBe(true);
        await until(async () => {
          await chain.mine({ blocks: 1 }); // a head as fresh as a real chain's
          await recoverPaidWrites();
          return (await call.row())?.status === "fulfilled";
        }, "recovery to store the write the chain shows paid");
        await paid(await call.send());
        expect(await call.stored()).toBe(1);
      } finally {
        front.setPolicy(PASS);
        await chain.setAutomine(true);
      }
      expect(await balance()).toBe(before - PRICE);
    },
  );
});
