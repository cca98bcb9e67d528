import { describe, expect, it } from "vitest";
import { sharedCheck } from "./shared-check";

/** A check whose answers the test gives, one per check started, in order. */
function controlled() {
  const pending: ((ok: boolean) => void)[] = [];
  let started = 0;
  const check = () =>
    new Promise<boolean>((resolve) => {
      started++;
      pending.push(resolve);
    });
  const answer = async (ok: boolean) => {
    pending.shift()!(ok);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { check, answer, started: () => started };
}

describe("a shared check", () => {
  it("answers a thousand callers at once with two checks: the running one and the next", async () => {
    const c = controlled();
    const ask = sharedCheck(c.check);
    const first = ask();
    const later = Array.from({ length: 1_000 }, () => ask());
    expect(c.started()).toBe(1);
    await c.answer(true);
    expect(await first).toBe(true);
    // The thousand asked while the first ran: they share the next, which begins after they asked.
    expect(c.started()).toBe(2);
    await c.answer(false);
    expect(new Set(await Promise.all(later))).toEqual(new Set([false]));
    expect(c.started()).toBe(2);
  });

  it("never gives a caller the answer of a check begun before it asked", async () => {
    const c = controlled();
    const ask = sharedCheck(c.check);
    const before = ask();
    const after = ask();
    await c.answer(false);
    expect(await before).toBe(false);
    await c.answer(true);
    expect(await after).toBe(true);
    // Nothing running: a new question starts a check of its own.
    const again = ask();
    expect(c.started()).toBe(3);
    await c.answer(true);
    expect(await again).toBe(true);
  });

  it("passes a failed check on to the callers that share it, and the next question asks again", async () => {
    let calls = 0;
    const ask = sharedCheck(async () => {
      calls++;
      if (calls === 1) throw new Error("no answer");
      return calls;
    });
    await expect(ask()).rejects.toThrow("no answer");
    expect(await ask()).toBe(2);
  });
});
