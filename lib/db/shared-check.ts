/**
 * One check at a time, shared by everyone who asks while it is waited for: a caller gets the answer of the
 * first check that starts after it asked (never one begun before, which could predate what it must see).
 * However many callers ask at once, at most two checks are out (the one running and the next), so the
 * answers cost a round trip or two, not a queue of one round trip each.
 */
export function sharedCheck<T>(check: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = () => {
    const started = check().finally(() => {
      if (running === started) running = undefined;
    });
    running = started;
    return started;
  };
  return () => {
    if (!running) return start();
    // Asked while a check runs: that one began before the question, so wait for the next, shared with
    // everyone else who asks meanwhile.
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = undefined;
        return running ?? start();
      });
    return next;
  };
}
