import { type InfiniteData, QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { queryKeys } from "../queries";
import type { FeedbackRecord, InboxPage, ResolveResult } from "../types";
import { rereadAfterWrite, stopReadsInFlight } from "./after-write";
import { applyResolved } from "./use-resolve";

/** A read the test answers by hand, as a slow server would. */
function slowReads<T>() {
  const pending: ((value: T) => void)[] = [];
  let calls = 0;
  const read = () => {
    calls += 1;
    return new Promise<T>((resolve) => pending.push(resolve));
  };
  return {
    read,
    calls: () => calls,
    /** Answers the oldest read still waiting. */
    answer: (value: T) => pending.shift()?.(value),
  };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function client() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  cleanups.push(() => queryClient.clear());
  return queryClient;
}

/** A client with `key` watched, as a mounted component watches it, so invalidating refetches it. */
function watched<T>(key: readonly unknown[], read: () => Promise<T>) {
  const queryClient = client();
  const observer = new QueryObserver(queryClient, { queryKey: key, queryFn: read });
  cleanups.push(observer.subscribe(() => {}));
  return queryClient;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("a read in flight when a write commits", () => {
  const key = ["owner", "0xabc", "item", "fb_1"];

  it("is what invalidating alone leaves in place: React Query hands back the read in flight", async () => {
    const reads = slowReads<string>();
    const client = watched(key, reads.read);
    await tick();
    expect(reads.calls()).toBe(1);
    const invalidated = client.invalidateQueries({ queryKey: key });
    reads.answer("before the write");
    await invalidated;
    // No second read was asked: the answer from before the write stays, fresh for 30 s.
    expect(reads.calls()).toBe(1);
    expect(client.getQueryData(key)).toBe("before the write");
  });

  it("is stopped and asked again by rereadAfterWrite, so the view ends on the state after the write", async () => {
    const reads = slowReads<string>();
    const client = watched(key, reads.read);
    await tick();
    const reread = rereadAfterWrite(client, [key]);
    await tick();
    expect(reads.calls()).toBe(2);
    reads.answer("before the write");
    reads.answer("after the write");
    await reread;
    expect(client.getQueryData(key)).toBe("after the write");
    expect(client.getQueryState(key)?.status).toBe("success");
  });

  it("is read again even when the query already held data", async () => {
    const reads = slowReads<string>();
    const client = watched(key, reads.read);
    await tick();
    reads.answer("first");
    await tick();
    const reread = rereadAfterWrite(client, [key]);
    await tick();
    reads.answer("after the write");
    await reread;
    expect(client.getQueryData(key)).toBe("after the write");
  });

  it("stopReadsInFlight names the queries it stopped and puts each back as it was", async () => {
    const reads = slowReads<string>();
    const client = watched(key, reads.read);
    const idle = ["owner", "0xabc", "item", "fb_2"];
    client.setQueryData(idle, "kept");
    await tick();
    const stopped = await stopReadsInFlight(client, [key, idle]);
    expect(stopped).toEqual([key]);
    expect(client.getQueryState(key)).toMatchObject({ status: "pending", fetchStatus: "idle" });
    reads.answer("before the write");
    await tick();
    expect(client.getQueryData(key)).toBeUndefined();
    expect(client.getQueryData(idle)).toBe("kept");
  });
});

describe("applyResolved", () => {
  const owner = "0xAbC";
  const result: ResolveResult = {
    id: "fb_1",
    namespace: "acme",
    resolved: true,
    resolvedAt: "2026-11-25T10:00:00.000Z",
    resolvedBy: owner,
    message: "Fixed",
  };
  const record = { id: "fb_1", status: "open", resolved: false, history: [] } as unknown as FeedbackRecord;

  it("keeps the resolve when the item's first read, answered before it, lands later", async () => {
    const reads = slowReads<FeedbackRecord>();
    const client = watched(queryKeys.item(owner, "fb_1"), reads.read);
    await tick();
    await applyResolved(client, owner, "acme", "fb_1", result);
    reads.answer(record);
    await tick();
    reads.answer({ ...record, status: "resolved", resolved: true });
    await tick();
    await tick();
    expect(reads.calls()).toBe(2);
    expect(client.getQueryData<FeedbackRecord>(queryKeys.item(owner, "fb_1"))).toMatchObject({
      status: "resolved",
      resolved: true,
    });
  });

  it("applies the resolve in place to every cached inbox page", async () => {
    const inboxKey = queryKeys.inbox(owner, "acme", {} as never);
    const cache = client();
    const page = { feedback: [{ ...record }], nextCursor: null } as unknown as InboxPage;
    cache.setQueryData<InfiniteData<InboxPage>>(inboxKey, { pages: [page], pageParams: [undefined] });
    await applyResolved(cache, owner, "acme", "fb_1", result);
    const data = cache.getQueryData<InfiniteData<InboxPage>>(inboxKey);
    expect(data?.pages[0]?.feedback[0]).toMatchObject({ status: "resolved", resolveMessage: "Fixed" });
  });
});
