import { describe, expect, it, vi } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { commitPaid } from "./commit-paid";
import type { PaidContext } from "./types";

const raced = () =>
  Object.assign(new Error("Failed query"), {
    cause: Object.assign(new Error("could not serialize"), { code: "40001" }),
  });
const ctx: PaidContext = {
  db: {} as DbOrTx,
  paymentId: "pay_test",
  txRef: null,
  payer: "0x00000000000000000000000000000000000A11CE",
  payerContractOn: null,
  protocol: "x402",
};

describe("storing a write that was paid for", () => {
  it("runs the store again when the database rolled it back for a race, instead of leaving it to recovery", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const commit = vi
      .fn()
      .mockRejectedValueOnce(raced())
      .mockResolvedValueOnce({ resultId: "fb_1", body: { id: "fb_1" } });
    await expect(commitPaid(commit, ctx)).resolves.toEqual({ resultId: "fb_1", body: { id: "fb_1" } });
    expect(commit).toHaveBeenCalledTimes(2);
  });

  it("never runs it again after a refusal that is not a race", async () => {
    const refusal = Object.assign(new Error("Failed query"), {
      cause: Object.assign(new Error("duplicate"), { code: "23505" }),
    });
    const commit = vi.fn().mockRejectedValue(refusal);
    await expect(commitPaid(commit, ctx)).rejects.toBe(refusal);
    expect(commit).toHaveBeenCalledTimes(1);
  });
});
