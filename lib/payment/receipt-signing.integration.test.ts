import { decodePaymentResponseHeader } from "@x402/core/http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { uniqueName } from "@/testing/app-fetch";
import { answerChecks, paidCall } from "@/testing/paid-call";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// The signed receipt is evidence added to a paid answer, not the answer: when it cannot be signed, a stored
// and charged call still answers 200 with its body and PAYMENT-RESPONSE, first time and every time after.
const signing = vi.hoisted(() => ({ fails: false }));
vi.mock("./offer-receipt", async (importOriginal) => {
  const real = await importOriginal<typeof import("./offer-receipt")>();
  return {
    ...real,
    signedReceiptExtension: (...args: Parameters<typeof real.signedReceiptExtension>) => {
      if (signing.fails) return Promise.reject(new Error("the receipt key is unavailable"));
      return real.signedReceiptExtension(...args);
    },
  };
});
afterEach(() => {
  signing.fails = false;
});

const devnet = workerDevnet();
const WALLET = 6;
const { paid } = answerChecks(devnet, WALLET);
const submission = () =>
  paidCall(devnet, WALLET, "feedback", {
    namespace: uniqueName("receipt"),
    type: "bug",
    title: distinctTitle("Unsigned receipt"),
    description: "Paid while the receipt could not be signed.",
  });

const receiptOf = (res: Response) =>
  decodePaymentResponseHeader(res.headers.get("payment-response")!).extensions?.["offer-receipt"];

describe("a paid call whose receipt cannot be signed", () => {
  it("answers 200 with its body and PAYMENT-RESPONSE, on the first answer and on a resend", async () => {
    signing.fails = true;
    const logged = vi.spyOn(console, "error");
    const call = await submission();
    const first = await call.send();
    const tx = await paid(first.clone());
    const body = await first.json();
    expect(body).toMatchObject({ id: expect.any(String) });
    expect(receiptOf(first)).toBeUndefined();
    expect(await call.stored()).toBe(1);
    // One line, naming the payment, with no signature or payment header in it.
    const lines = logged.mock.calls.map((args) => args.join(" ")).filter((l) => /receipt/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain((await call.row())!.id);
    expect(lines[0]).not.toContain(call.signature.slice(0, 40));

    const again = await call.send();
    expect(await paid(again.clone())).toBe(tx);
    expect(await again.json()).toEqual(body);
    expect(receiptOf(again)).toBeUndefined();

    // Once signing works again, the same credential gets its receipt; still stored once.
    signing.fails = false;
    const signed = await call.send();
    expect(await paid(signed.clone())).toBe(tx);
    expect(receiptOf(signed)).toMatchObject({ info: { receipt: { format: "jws" } } });
    expect(await call.stored()).toBe(1);
    logged.mockRestore();
  });
});
