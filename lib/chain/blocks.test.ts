import { describe, expect, it } from "vitest";
import { lapsed, MAX_HEAD_AGE_SECONDS, StaleHead } from "./blocks";

const NOW_MS = 1_800_000_000_000;
const now = BigInt(NOW_MS / 1000);
const headAt = (timestamp: bigint) => ({ timestamp });

describe("lapsed", () => {
  it("decides from a fresh head's own clock, never from the wall clock", () => {
    expect(lapsed(headAt(now - 2n), now - 3n, NOW_MS)).toBe(true);
    expect(lapsed(headAt(now - 2n), now - 2n, NOW_MS)).toBe(true);
    // Past by the wall clock, not by the head: the chain can still include it.
    expect(lapsed(headAt(now - 2n), now - 1n, NOW_MS)).toBe(false);
    // A head ahead of this machine's clock is fresh: the chain's clock is the one that counts.
    expect(lapsed(headAt(now + 5n), now + 4n, NOW_MS)).toBe(true);
  });

  it("answers nothing from a head too far behind the wall clock, however long ago validBefore was", () => {
    const stale = headAt(now - MAX_HEAD_AGE_SECONDS - 1n);
    expect(() => lapsed(stale, now - 600n, NOW_MS)).toThrow(StaleHead);
    expect(() => lapsed(stale, now + 600n, NOW_MS)).toThrow(StaleHead);
    expect(lapsed(headAt(now - MAX_HEAD_AGE_SECONDS), now - 600n, NOW_MS)).toBe(true);
  });
});
