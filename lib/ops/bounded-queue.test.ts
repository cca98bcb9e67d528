import { describe, expect, it } from "vitest";
import { boundedQueue } from "./bounded-queue";

/** A task that ends when the test says. */
function gate() {
  let open = () => {};
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, task: () => done };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("boundedQueue", () => {
  it("runs at most atOnce tasks, the waiting ones first come first run, and refuses past its room", async () => {
    const queue = boundedQueue({ atOnce: 2, waiting: 2 });
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const offered = gates.map((g, i) =>
      queue.offer(() => {
        started.push(i);
        return g.task();
      }),
    );
    expect(offered).toEqual([true, true, true, true, false]);
    expect(started).toEqual([0, 1]);
    expect(queue.size()).toEqual({ running: 2, waiting: 2 });
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]!.open();
    gates[3]!.open();
    await tick();
    expect(queue.size()).toEqual({ running: 0, waiting: 0 });
  });

  it("frees a failed task's place", async () => {
    const queue = boundedQueue({ atOnce: 1, waiting: 1 });
    const ran: string[] = [];
    queue.offer(async () => {
      ran.push("fails");
      throw new Error("refused");
    });
    queue.offer(async () => {
      ran.push("next");
    });
    await tick();
    await tick();
    expect(ran).toEqual(["fails", "next"]);
    expect(queue.size()).toEqual({ running: 0, waiting: 0 });
  });
});
