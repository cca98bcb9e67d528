import "server-only";
import { after } from "next/server";

/**
 * Runs `task` once the answer has gone out, so the answer never waits for it, not even for its part before
 * the first await. Outside a request (a test, a script, the recovery loop) it starts at once in the
 * background. `task` handles its own failures.
 */
export function afterAnswer(task: () => Promise<unknown>): void {
  try {
    after(task);
  } catch {
    void task();
  }
}
