import type { Address, Client, NonceManager } from "viem";
import { getTransactionCount } from "viem/actions";

type Key = { address: Address; chainId: number };
type Source = (args: Key & { client: Client }) => Promise<number>;

/**
 * viem's NonceManager, plus nonces held from `take` until `release` says how their send ended. A reset
 * (another instance used the key, or a send failed) rereads the chain's pending count and hands out the
 * lowest nonce no send in flight holds, so a gap left by a send that never reached the chain is filled next.
 */
export type LocalNonceManager = NonceManager & {
  take(args: Key & { client: Client }): Promise<number>;
  /** Ends a `take`: "mined" keeps the nonce used; "failed" frees it and reads the chain again next. */
  release(args: Key, nonce: number, outcome: "mined" | "failed"): void;
  /** After a reset, the lowest free nonce when a send in flight holds a higher one (a gap), else null. */
  takeGap(args: Key & { client: Client }): Promise<number | null>;
};

type State = {
  /** The next nonce to hand out; undefined until the chain's pending count is read (again). */
  next?: number;
  /** The read in progress, shared by everyone waiting for it. */
  reading?: Promise<number>;
  /** Bumped by every reset: a read that started before one is not trusted. */
  epoch: number;
  /** Nonces handed out by `take` whose sends have not ended. */
  inFlight: Set<number>;
  /** `increment` calls made while no count was known, applied to the next read. */
  skips: number;
};

const pendingCount: Source = ({ address, client }) =>
  getTransactionCount(client, { address, blockTag: "pending" });

/**
 * A nonce manager that reads each key's pending transaction count once and counts locally after that.
 * viem's own keeps the last nonce it gave in a cache that a reset cannot clear, so after a failed send
 * it never goes back to fill the gap, and every later transaction waits behind it.
 */
export function createLocalNonceManager(source: Source = pendingCount): LocalNonceManager {
  const states = new Map<string, State>();
  const stateOf = ({ address, chainId }: Key) => {
    const key = `${address.toLowerCase()}.${chainId}`;
    let state = states.get(key);
    if (!state) {
      state = { epoch: 0, inFlight: new Set(), skips: 0 };
      states.set(key, state);
    }
    return state;
  };

  /** Resolves once `state.next` is known from a read no reset has overtaken. */
  async function known(args: Key & { client: Client }, state: State) {
    while (state.next === undefined) {
      const epoch = state.epoch;
      const reading = state.reading ?? source(args);
      state.reading = reading;
      let count: number;
      try {
        count = await reading;
      } finally {
        // A failed read is forgotten at once: the next caller asks again instead of inheriting it.
        if (state.reading === reading) delete state.reading;
      }
      if (state.epoch !== epoch || state.next !== undefined) continue;
      for (const nonce of state.inFlight) if (nonce < count) state.inFlight.delete(nonce);
      state.next = count + state.skips;
      state.skips = 0;
    }
    return state;
  }

  const lowestFree = (state: State) => {
    let nonce = state.next!;
    while (state.inFlight.has(nonce)) nonce++;
    return nonce;
  };

  // Runs synchronously after `known`: concurrent callers resume one by one, each taking its own nonce.
  const hand = (state: State, hold: boolean) => {
    const nonce = lowestFree(state);
    state.next = nonce + 1;
    if (hold) state.inFlight.add(nonce);
    return nonce;
  };

  const reset = (args: Key) => {
    const state = stateOf(args);
    state.epoch++;
    delete state.next;
    delete state.reading;
    state.skips = 0;
  };

  return {
    consume: async (args) => hand(await known(args, stateOf(args)), false),
    take: async (args) => hand(await known(args, stateOf(args)), true),
    get: async (args) => lowestFree(await known(args, stateOf(args))),
    increment(args) {
      const state = stateOf(args);
      if (state.next === undefined) state.skips++;
      else hand(state, false);
    },
    reset,
    release(args, nonce, outcome) {
      const state = stateOf(args);
      state.inFlight.delete(nonce);
      if (outcome === "failed") reset(args);
      // A mined nonce proves every lower one used: never hand one of them out again (after a reset the
      // count restarts below the sends that were still in flight).
      else if (state.next !== undefined && state.next <= nonce) state.next = nonce + 1;
    },
    async takeGap(args) {
      const state = await known(args, stateOf(args));
      const free = lowestFree(state);
      return [...state.inFlight].some((n) => n > free) ? hand(state, true) : null;
    },
  };
}
