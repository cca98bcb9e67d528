/**
 * Background work that may wait: at most `atOnce` tasks run at a time, up to `waiting` more wait their turn
 * (first come, first run), and a task offered past that is refused, for a sweep to do later. Keeps work
 * that follows an answer (grouping a report) from taking every database connection the paid path needs
 * when a block settles many payments at once.
 */
export function boundedQueue(options: { atOnce: number; waiting: number }) {
  const queue: Array<() => Promise<unknown>> = [];
  let running = 0;

  const next = () => {
    while (running < options.atOnce && queue.length > 0) {
      const task = queue.shift()!;
      running++;
      // A task handles its own failures; one that throws anyway still frees its place.
      void task()
        .catch(() => undefined)
        .finally(() => {
          running--;
          next();
        });
    }
  };

  return {
    /** Queues `task`; false when the queue is full (nothing runs: the caller's sweep does it later). */
    offer(task: () => Promise<unknown>): boolean {
      if (queue.length >= options.waiting) return false;
      queue.push(task);
      next();
      return true;
    },
    /** Tasks running and waiting now. */
    size: () => ({ running, waiting: queue.length }),
  };
}
