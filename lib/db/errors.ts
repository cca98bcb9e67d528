/** SQLSTATE codes the domain reacts to. */
export const SQLSTATE = {
  notNullViolation: "23502",
  uniqueViolation: "23505",
  serializationFailure: "40001",
  deadlockDetected: "40P01",
} as const;

/** The SQLSTATE of a database error, through drizzle's wrapping, whichever driver raised it. */
export function sqlStateOf(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether a transaction failed only because another one raced it: the database rolled it back whole. */
export function isRetryableConflict(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code === SQLSTATE.serializationFailure || code === SQLSTATE.deadlockDetected;
}

/** How many times a transaction runs at most when it keeps losing races, and the first back-off. */
const CONFLICT_ATTEMPTS = 6;
const FIRST_BACKOFF_MS = 4;
// Failures a retry already gave up on: a retry around it (the store around a transaction) never runs
// them again, so nested retries cost `attempts` runs in all, not their product.
const givenUp = new WeakSet<object>();

/**
 * Reruns a transaction rolled back for a lost race: a deadlock (40P01) or a serialization failure (40001,
 * from serializable or distributed PostgreSQL). Each attempt starts afresh, so a body must talk to the
 * database alone (the chain and webhooks are called outside); what an inner retry gave up on is not rerun.
 */
export async function retryingConflicts<T>(
  run: () => Promise<T>,
  options: {
    attempts?: number;
    sleep?: (ms: number) => Promise<void>;
    onRetry?: (code: string) => void;
  } = {},
): Promise<T> {
  const attempts = options.attempts ?? CONFLICT_ATTEMPTS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isRetryableConflict(error) || givenUp.has(error as object)) throw error;
      if (attempt >= attempts) {
        givenUp.add(error as object);
        throw error;
      }
      options.onRetry?.(sqlStateOf(error)!);
      await sleep(Math.random() * FIRST_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
}

// SQLSTATE classes and codes that mean the server cannot be talked to now, not that the statement is wrong:
// connection exceptions (08…), the server shutting down or starting (57P01–57P03), too many connections.
const UNREACHABLE_STATES = /^(08...|57P0[123]|53300)$/;
// What postgres.js and Node's sockets say when no connection could be made or one was lost.
const UNREACHABLE_CODES = new Set([
  // This process's own: a server that started with its database away and is still waiting for it.
  "DATABASE_STARTING",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * The code saying the database could not be reached (down, restarting, unreachable, out of connections),
 * found through drizzle's wrapping; undefined for any other error. Such a request may succeed unchanged once
 * the database is back. The code is what to log: a failed query's message can quote its parameters.
 */
export function databaseUnreachableCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const current = pending.pop();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || UNREACHABLE_STATES.test(code)))
      return code;
    pending.push((current as { cause?: unknown }).cause);
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner)) pending.push(...inner);
  }
  return undefined;
}

/** Whether an error means the database could not be reached (see databaseUnreachableCode). */
export const isDatabaseUnreachable = (error: unknown) => databaseUnreachableCode(error) !== undefined;
