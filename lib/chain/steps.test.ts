import { describe, expect, it } from "vitest";
import { withTimeout, withTracedTimeout } from "@/lib/payment/timeout";
import { describeStep, enterStep, type StepTrace, withSteps } from "./steps";

const never = () => new Promise<never>(() => {});
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("a traced call's steps", () => {
  it("name the step a timed-out call was in, and for how long", async () => {
    const run = async () => {
      enterStep("a nonce");
      await tick();
      enterStep("the send of nonce 7");
      return never();
    };
    await expect(withTracedTimeout(run, 50, "x402 settle")).rejects.toThrow(
      /^x402 settle did not answer within 50 ms, waiting 0\.\d s on the send of nonce 7$/,
    );
  });

  it("stay with their own call when calls run side by side, through timers and awaits", async () => {
    const a: StepTrace = {};
    const b: StepTrace = {};
    await Promise.all([
      withSteps(a, async () => {
        enterStep("a: lease");
        await tick();
        setTimeout(() => enterStep("a: timer"), 0);
        await tick();
      }),
      withSteps(b, async () => {
        await tick();
        enterStep("b: receipt");
      }),
    ]);
    expect([a.step, b.step]).toEqual(["a: timer", "b: receipt"]);
  });

  it("say nothing when no step was entered, and are ignored outside a traced call", async () => {
    enterStep("outside");
    expect(describeStep({})).toBeUndefined();
    await expect(withTracedTimeout(never, 20, "x402 verify")).rejects.toThrow(
      /^x402 verify did not answer within 20 ms$/,
    );
    await expect(withTimeout(never(), 20, "readiness check")).rejects.toThrow(
      /^readiness check did not answer within 20 ms$/,
    );
    expect(describeStep({ step: "a read", since: 1_000 }, 3_500)).toBe("2.5 s on a read");
  });
});
