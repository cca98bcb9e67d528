import { describe, expect, it, vi } from "vitest";
import { afterAnswer } from "./after-answer";

describe("afterAnswer", () => {
  it("outside a request, starts the task at once", async () => {
    const task = vi.fn(async () => undefined);
    afterAnswer(task);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
