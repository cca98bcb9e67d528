import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { sharedCheck } from "./shared-check";

/**
 * A database session of this process's own, whose session-level advisory locks last exactly as long
 * as it does. PostgreSQL ends a session, and releases its locks, the moment its connection closes: a
 * process killed with -9 has its connections closed by the kernel at once.
 */
export type LockSession = {
  /** Takes the lock on `key` unless another session holds it; true when this session holds it. */
  tryLock(key: bigint): Promise<boolean>;
  /** Asks the server whether the session is still there (and with it every lock it took). */
  alive(timeoutMs: number): Promise<boolean>;
  /** True once the session is known to be gone, without asking. */
  readonly closed: boolean;
  close(): Promise<void>;
};

const TRY_LOCK = "select pg_try_advisory_lock($1::bigint) as locked";

/**
 * A PostgreSQL session on one connection of its own, reserved and never recycled by the driver: no
 * idle timeout and no maximum lifetime, so it ends only when the process or the server ends it. Once it
 * has closed it is never used again; the caller opens another (and holds no lock until it takes them).
 */
export async function postgresLockSession(url: string): Promise<LockSession> {
  const { default: postgres } = await import("postgres");
  let closed = false;
  const client = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: 0,
    onnotice: () => {},
    onclose: () => {
      closed = true;
    },
    // The server ends the session of a host that vanished without closing it within about 20 s,
    // rather than after the kernel's two hours, so its locks do not outlive it.
    connection: {
      application_name: "signer-locks",
      tcp_keepalives_idle: 5,
      tcp_keepalives_interval: 5,
      tcp_keepalives_count: 3,
    },
  });
  const end = () => {
    closed = true;
    return client.end({ timeout: 0 });
  };
  try {
    const reserved = await client.reserve();
    let boundMs = 0;
    // Every send asks right before it signs. One connection answers its queries one round trip at a time
    // once more than a pipeline's worth wait, so under load a thousand sends in flight queued a thousand
    // `select 1`s and each waited out the others (20 s, at 100 paid calls a second): the sends share one
    // question instead, each the first asked after it (lib/db/shared-check.ts).
    const askAlive = sharedCheck(async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("no answer")), boundMs);
      });
      try {
        await Promise.race([reserved`select 1`, timeout]);
        return !closed;
      } catch {
        // Unanswered or failed: whatever the server thinks, this session is given up, locks and all.
        void end().catch(() => undefined);
        return false;
      } finally {
        clearTimeout(timer);
      }
    });
    // An idle session must not be ended for idling (PostgreSQL 14+; older servers have no such limit).
    await reserved`select set_config('idle_session_timeout', '0', false)`.catch(() => undefined);
    return {
      get closed() {
        return closed;
      },
      async tryLock(key) {
        if (closed) return false;
        const [row] = await reserved.unsafe<{ locked: boolean }[]>(TRY_LOCK, [key.toString()]);
        return row?.locked === true && !closed;
      },
      async alive(timeoutMs) {
        if (closed) return false;
        boundMs = timeoutMs;
        return askAlive();
      },
      close: end,
    };
  } catch (error) {
    await end().catch(() => undefined);
    throw error;
  }
}

/** The embedded database is one process's, on one connection: its session lives as long as it is open. */
export function pgliteLockSession(client: PGlite): LockSession {
  return {
    get closed() {
      return client.closed;
    },
    async tryLock(key) {
      const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK, [key.toString()]);
      return rows[0]?.locked === true;
    },
    alive: async () => !client.closed,
    close: async () => {},
  };
}
