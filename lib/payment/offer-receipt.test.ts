import type { PaymentRequirements } from "@x402/core/types";
import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("@/lib/env", () => ({
  env: () => ({
    OFFER_RECEIPT_PRIVATE_KEY: `0x${"11".repeat(32)}`,
    PUBLIC_ORIGIN: "https://feedback.example",
  }),
}));
const { forgetSignedOffers, signedOfferExtension } = await import("./offer-receipt");

const requirement = {
  scheme: "exact",
  network: "eip155:31337",
  asset: "0x0000000000000000000000000000000000000001",
  payTo: "0x0000000000000000000000000000000000000002",
  amount: "10000",
  maxTimeoutSeconds: 60,
  extra: {},
} satisfies PaymentRequirements;
const url = "https://feedback.example/api/namespace/feedback";

/** The offer's JWS and its payload's validUntil. */
async function offer(resourceUrl = url, terms: PaymentRequirements = requirement) {
  const extension = await signedOfferExtension(resourceUrl, terms);
  const [signed] = (extension![OFFER_RECEIPT].info as { offers: Array<{ signature: string }> }).offers;
  const payload = JSON.parse(Buffer.from(signed!.signature.split(".")[1]!, "base64url").toString());
  return { signature: signed!.signature, validUntil: payload.validUntil as number, payload };
}

describe("a 402's signed offer", () => {
  beforeEach(() => {
    forgetSignedOffers();
    vi.useFakeTimers({ now: new Date("2026-12-07T00:00:00Z") });
  });
  afterEach(() => vi.useRealTimers());

  it("is signed once per route and price, and handed out again for a sixth of its validity", async () => {
    const first = await offer();
    expect(first.validUntil).toBe(Date.now() / 1000 + 60);
    vi.advanceTimersByTime(9_000);
    expect((await offer()).signature).toBe(first.signature);
    vi.advanceTimersByTime(1_000);
    const next = await offer();
    expect(next.signature).not.toBe(first.signature);
    expect(next.validUntil).toBe(first.validUntil + 10);
  });

  it("always has at least five sixths of its validity ahead when handed out", async () => {
    for (let s = 0; s < 30; s++) {
      const { validUntil } = await offer();
      expect(validUntil - Date.now() / 1000).toBeGreaterThan(50);
      vi.advanceTimersByTime(1_000);
    }
  });

  it("is never another route's or another price's", async () => {
    const first = await offer();
    const register = await offer("https://feedback.example/api/namespace/register");
    expect(register.payload.resourceUrl).toBe("https://feedback.example/api/namespace/register");
    const pricier = await offer(url, { ...requirement, amount: "20000" });
    expect(pricier.payload.amount).toBe("20000");
    const elsewhere = await offer(url, {
      ...requirement,
      payTo: "0x0000000000000000000000000000000000000003",
    });
    expect(elsewhere.payload.payTo).toBe("0x0000000000000000000000000000000000000003");
    expect((await offer()).signature).toBe(first.signature);
  });

  it("is signed again when the clock goes back", async () => {
    const first = await offer();
    vi.setSystemTime(Date.now() - 5_000);
    const again = await offer();
    expect(again.validUntil).toBe(first.validUntil - 5);
  });
});
