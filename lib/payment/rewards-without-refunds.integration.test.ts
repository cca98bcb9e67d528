import { decodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it, vi } from "vitest";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { rewardRequirement } from "@/testing/rewards";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// Configured without an x402 refund key: a reward paid with x402 could not be paid back, so x402 is
// not offered for rewards at all; MPP, refunded from the payout wallet, still is.
vi.hoisted(() => {
  delete process.env.X402_REFUND_PRIVATE_KEY;
});

const devnet = workerDevnet();
const x402 = (i: number) => devnetX402Payer(devnet, i, appFetch);

describe("rewards when x402 payments cannot be refunded", () => {
  it("offers only MPP for a reward, refuses an x402 credential uncharged, and keeps x402 for the rest", async () => {
    const owner = x402(2);
    const namespace = uniqueName("norefund");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const submitted = await x402(3).fetch(
      `${APP}/api/namespace/feedback`,
      postJson({
        namespace,
        type: "bug",
        title: distinctTitle("Tip me"),
        description: "Only MPP can tip this.",
      }),
    );
    const { id } = await submitted.json();

    const url = `${APP}/api/namespace/resolve`;
    const asked = await appFetch(url, postJson({ feedbackId: id, rewardAmount: "0.1" }));
    expect(asked.status).toBe(402);
    expect(asked.headers.get("payment-required")).toBeNull();
    expect(asked.headers.get("www-authenticate")).toMatch(/^Payment /);
    expect((await asked.json()).protocols).toEqual(["mpp"]);

    const signature = await owner.sign(
      rewardRequirement(devnet, url, 100_000n, "Resolving with a 0.1 USD reward"),
    );
    const res = await appFetch(
      url,
      postJson({ feedbackId: id, rewardAmount: "0.1" }, { "payment-signature": signature }),
    );
    expect(res.status).toBe(402);
    expect((await res.json()).detail).toMatch(/x402 is not accepted for this call; pay with mpp/);

    const feedback = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: "x402", description: "still offered here" }),
    );
    expect(decodePaymentRequiredHeader(feedback.headers.get("payment-required")!).accepts).toHaveLength(1);
  });
});
