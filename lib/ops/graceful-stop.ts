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
 */
export function installGracefulStop(parts: Parts): void {
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await bounded(parts.leave(), STOP_MS.close).catch(() => {});
      if (parts.work) await parts.work.stop(STOP_MS.work).catch(() => {});
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
}
