import { decodePaymentRequiredHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

// A payment signed for one operation never pays for another at the same price: what the payer signs
// (recipient and amount) differs per operation, and the credential must be exactly what the route offered.
const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const owner = devnetX402Payer(devnet, 7, appFetch);

describe("a payment bound to its operation", () => {
  it("signed for a 0.01 USD submission cannot pay a 0.01 USD reward, so it cannot act for the owner", async () => {
    const namespace = uniqueName("bind");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const submitted = await owner.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: "Mine", description: "Filed by the owner's own wallet." }),
    );
    const { id } = await submitted.json();

    // The owner signs a submission; someone who captures that credential tries it on a 0.01 reward.
    const asked = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: "Another", description: "Another report of mine." }),
    );
    const submission = await owner.sign(asked.headers.get("payment-required")!);
    const offered = decodePaymentRequiredHeader(
      (
        await appFetch(`${APP}/api/namespace/resolve`, postJson({ feedbackId: id, rewardAmount: "0.01" }))
      ).headers.get("payment-required")!,
    ).accepts[0]!;
    expect(offered.amount).toBe("10000");
    expect(offered.payTo).toBe(devnet.x402.refundWallet);

    const before = await chain.balanceOf(owner.address);
    const res = await appFetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: id, rewardAmount: "0.01" }, { "payment-signature": submission }),
    );
    expect(res.status).toBe(402);
    const problem = await res.json();
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["PAYMENT-SIGNATURE.accepted", "PAYMENT-SIGNATURE.payload.authorization.to"]),
    );
    expect(await chain.balanceOf(owner.address)).toBe(before);
    const [item] = await (await getDb()).select().from(feedback).where(eq(feedback.id, id));
    expect(item).toMatchObject({ resolved: false, resolvingPaymentId: null });
  });
});
