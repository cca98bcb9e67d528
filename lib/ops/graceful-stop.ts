import "server-only";
import { closeDb } from "@/lib/db/client";
import { describeError } from "@/lib/http/log";
import type { BackgroundWork } from "./background-work";

/** How long a stop may spend on the background work's rows in hand and on closing the database. */
const STOP_MS = { work: 5_000, close: 5_000 };

type Parts = { leave: () => Promise<void>; work?: BackgroundWork };

const bounded = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * A web server's graceful stop (SIGTERM as systemd and `docker stop` send, or SIGINT). Next.js stops taking
 * requests and finishes those in hand, then exits; its exit waits here for this process to leave the instance
 * records, stop the background work after its rows in hand, and close the database, so the embedded one is
 * shut down cleanly (no postmaster.pid left for the offline tools to refuse) and no check counts this process
 * as live. Each step is bounded: a stop never hangs.
 *
 * Installed when the server starts, before its database is open: a stop that comes while the database is still
 * opening (or away) closes it all the same once it opens. The instance record and the background work, which
 * exist only once the database is open, are handed over by `attach`; one attached after the stop began is
 * let go at once.
 */
export function installGracefulStop(): { attach: (parts: Parts) => void } {
  let parts: Parts | undefined;
  let closing: Promise<void> | undefined;
  const letGo = async (p: Parts) => {
    await bounded(p.leave(), STOP_MS.close).catch(() => {});
    if (p.work) await p.work.stop(STOP_MS.work).catch(() => {});
  };
  const close = () => {
    closing ??= (async () => {
      if (parts) await letGo(parts);
      await bounded(closeDb(), STOP_MS.close).catch((error: unknown) => {
        console.error(`[stop] closing the database failed: ${describeError(error)}`);
      });
    })();
    return closing;
  };
  const onSignal = () => {
    // Next's own handler drains the requests in hand, then calls process.exit: that exit waits for `close`.
    const exit = process.exit.bind(process);
    process.exit = ((code?: number) => {
      void close().finally(() => exit(code));
    }) as typeof process.exit;
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  return {
    attach: (attached) => {
      parts = attached;
      if (closing) void letGo(attached);
    },
  };
}
