import type { Sql } from "postgres";

/**
 * What this process's statements asked of its PostgreSQL pool. postgres.js keeps no queue length: a
 * statement that finds every connection busy is pipelined behind another one's on some connection, and a
 * transaction waits for a connection of its own. Both are counted here as waits on the pool.
 */
export type PoolStats = {
  /** The pool's connections. */
  size: number;
  /** Statements and transactions running or waiting now. */
  inFlight: number;
  /** The most in flight since the last `takePeak`. */
  peak: number;
  /** Statements and transactions begun, since the process started. */
  begun: number;
  /** Of those, the ones begun while every connection was taken: they waited behind another. */
  waited: number;
};

// On globalThis: Next.js bundles each route apart, and the route that opens the database is seldom the one
// that serves /metrics. One per process, as the database handle is.
const store = globalThis as unknown as { __feedbackPoolStats?: PoolStats };
store.__feedbackPoolStats ??= { size: 0, inFlight: 0, peak: 0, begun: 0, waited: 0 };
const stats = store.__feedbackPoolStats;

/** This process's pool figures now (the peak since the last `takePeak`). */
export const poolStats = (): PoolStats => ({ ...stats });

/** The most in flight since the last call; starts the next window. */
export function takePeak(): number {
  const peak = stats.peak;
  stats.peak = stats.inFlight;
  return peak;
}

function enter() {
  stats.begun++;
  if (stats.inFlight >= stats.size) stats.waited++;
  stats.inFlight++;
  if (stats.inFlight > stats.peak) stats.peak = stats.inFlight;
}

const leave = () => {
  stats.inFlight--;
};

type Thenable = { then: PromiseLike<unknown>["then"] };

/**
 * Counts what goes through the pool `client` of `size` connections: each statement sent outside a
 * transaction (postgres.js runs a statement when it is first awaited), and each transaction from begin
 * to end. Statements inside a transaction run on its own connection and are not counted again.
 */
export function countingPool<T extends Sql>(client: T, size: number): T {
  stats.size += size;
  const end = client.end.bind(client);
  let ended = false;
  // An ended pool's connections leave the figure (a process that reopens its database counts the new one).
  (client as unknown as { end: unknown }).end = (...args: Parameters<T["end"]>) => {
    if (!ended) stats.size -= size;
    ended = true;
    return end(...args);
  };
  const unsafe = client.unsafe.bind(client) as (...args: unknown[]) => Thenable;
  const begin = client.begin.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const counted = client as unknown as { unsafe: unknown; begin: unknown };
  // Set while begin() runs its first, synchronous part, in which it sends its own `begin` statement
  // through `unsafe`: that statement is the transaction's, counted once with it.
  let beginning = false;
  counted.unsafe = (...args: unknown[]) => {
    const query = unsafe(...args);
    if (beginning) return query;
    const then = query.then.bind(query);
    let running: Promise<unknown> | undefined;
    // biome-ignore lint/suspicious/noThenProperty: postgres.js sends a statement when it is first awaited, so its first `then` is when it enters the pool
    query.then = (onFulfilled, onRejected) => {
      if (!running) {
        enter();
        running = new Promise((resolve, reject) => then(resolve, reject)).finally(leave);
      }
      return running.then(onFulfilled, onRejected) as never;
    };
    return query;
  };
  counted.begin = (...args: unknown[]) => {
    enter();
    beginning = true;
    let transaction: Promise<unknown>;
    try {
      transaction = begin(...args);
    } finally {
      beginning = false;
    }
    return transaction.finally(leave);
  };
  return client;
}
