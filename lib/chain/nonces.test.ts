import type { Client } from "viem";
import { describe, expect, it, vi } from "vitest";
import { createLocalNonceManager } from "./nonces";

const key = { address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", chainId: 31337 } as const;
const args = { ...key, client: {} as Client };

/** A chain whose pending count the test sets, counting how often it is read. */
function chain(count: number) {
  const state = { count, reads: 0 };
  const source = vi.fn(async () => {
    state.reads++;
    return state.count;
  });
  return { state, nonces: createLocalNonceManager(source) };
}

describe("createLocalNonceManager", () => {
  it("gives concurrent takers distinct consecutive nonces from one read of the chain", async () => {
    const { state, nonces } = chain(7);
    const taken = await Promise.all(Array.from({ length: 20 }, () => nonces.take(args)));
    expect(taken).toEqual(Array.from({ length: 20 }, (_, i) => 7 + i));
    expect(await nonces.consume(args)).toBe(27);
    expect(state.reads).toBe(1);
  });

  it("after a failed send, reads the chain again, fills the gap and skips the sends still in flight", async () => {
    const { state, nonces } = chain(5);
    expect(await Promise.all([nonces.take(args), nonces.take(args), nonces.take(args)])).toEqual([5, 6, 7]);
    nonces.release(key, 5, "mined");
    // 6 never reached the chain; 7 waits behind it.
    state.count = 6;
    nonces.release(key, 6, "failed");
    expect(await nonces.take(args)).toBe(6);
    expect(await nonces.take(args)).toBe(8);
    expect(state.reads).toBe(2);
  });

  it("never hands out again a nonce below one that was mined while the count was behind it", async () => {
    const { state, nonces } = chain(0);
    expect(await Promise.all([nonces.take(args), nonces.take(args), nonces.take(args)])).toEqual([0, 1, 2]);
    nonces.release(key, 0, "failed");
    expect(await nonces.take(args)).toBe(0);
    // 0 filled the gap, and 1 and 2 were mined behind it: the next is 3, whatever the read said.
    nonces.release(key, 2, "mined");
    nonces.release(key, 1, "mined");
    expect(await nonces.take(args)).toBe(3);
    expect(state.reads).toBe(2);
  });

  it("forgets a failed read: the callers waiting on it fail, the next caller reads again", async () => {
    const source = vi
      .fn<() => Promise<number>>()
      .mockRejectedValueOnce(new Error("timeout"))
      .mockResolvedValue(3);
    const nonces = createLocalNonceManager(source);
    const failed = await Promise.allSettled([nonces.take(args), nonces.consume(args)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await Promise.all([nonces.take(args), nonces.take(args)])).toEqual([3, 4]);
    expect(source).toHaveBeenCalledTimes(2);
  });

  it("does not trust a read that a reset overtook", async () => {
    let answer!: (count: number) => void;
    const source = vi
      .fn<() => Promise<number>>()
      .mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)))
      .mockResolvedValue(40);
    const nonces = createLocalNonceManager(source);
    const taking = nonces.take(args);
    // Another instance used the key while the first read was on its way.
    nonces.reset(key);
    answer(12);
    expect(await taking).toBe(40);
  });

  it("finds a gap only below a send in flight", async () => {
    const { state, nonces } = chain(10);
    expect(await nonces.take(args)).toBe(10);
    expect(await nonces.takeGap(args)).toBeNull();
    expect(await nonces.take(args)).toBe(11);
    nonces.release(key, 10, "failed");
    expect(await nonces.takeGap(args)).toBe(10);
    expect(await nonces.take(args)).toBe(12);
    expect(state.reads).toBe(2);
  });

  it("answers viem's contract: get looks, consume and increment move on, reset reads again", async () => {
    const { state, nonces } = chain(2);
    nonces.increment(key);
    expect(await nonces.get(args)).toBe(3);
    expect(await nonces.get(args)).toBe(3);
    expect(await nonces.consume(args)).toBe(3);
    nonces.increment(key);
    expect(await nonces.consume(args)).toBe(5);
    state.count = 4;
    nonces.reset(key);
    // A consumed nonce is not held: after a reset the chain's count is taken as it is.
    expect(await nonces.consume(args)).toBe(4);
    expect(await nonces.consume({ ...args, chainId: 1 })).toBe(4);
    expect(state.reads).toBe(3);
  });
});
