import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { formatUsd } from "@/lib/money";
import { postResolve } from "../fetchers/feedback";
import { queryKeys } from "../queries";
import type { FeedbackRecord, InboxItem, InboxPage, ResolveResult } from "../types";
import { rereadAfterWrite, stopReadsInFlight } from "./after-write";
import { usePayingFetch } from "./use-paying-fetch";

/**
 * `alsoResolve`: other reports the owner chose to resolve with it (never rewarded); `publicNote`: what the
 * reporters who said "me too" and the known issues list read, instead of the message.
 */
type ResolveInput = {
  id: string;
  message: string;
  publicNote?: string;
  rewardMicroUsd: bigint;
  alsoResolve?: string[];
};

const plainFetch: typeof fetch = (input, init) => fetch(input, init);

function applied<T extends InboxItem | FeedbackRecord>(item: T, result: ResolveResult): T {
  return {
    ...item,
    resolved: true,
    status: "resolved",
    resolvedAt: result.resolvedAt,
    resolvedBy: result.resolvedBy,
    resolveMessage: result.message ?? null,
    rewardAmount: result.reward?.amount ?? null,
    rewardTxHash: result.reward?.txHash ?? null,
  };
}

/**
 * Resolves an item with a message and an optional tip. A tip is paid through the same 402 flow as
 * registering; without one the call is free and rides on the session. The item is updated in place
 * in every cached inbox page and in its full view.
 */
export function useResolveFeedback(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  const preparePay = usePayingFetch();
  return useMutation({
    mutationFn: async ({ id, message, publicNote = "", rewardMicroUsd, alsoResolve = [] }: ResolveInput) => {
      const tipped = rewardMicroUsd > 0n;
      const pay = tipped ? await preparePay(rewardMicroUsd) : plainFetch;
      return postResolve(pay, {
        feedbackId: id,
        ...(message.trim() ? { message: message.trim() } : {}),
        ...(publicNote.trim() ? { publicNote: publicNote.trim() } : {}),
        ...(tipped ? { rewardAmount: formatUsd(rewardMicroUsd) } : {}),
        ...(alsoResolve.length ? { alsoResolve } : {}),
      });
    },
    onSuccess: async ({ result }, { id }) => {
      await applyResolved(queryClient, owner, namespace, id, result);
      // The others were resolved with the same message and no reward.
      const plain = { ...result, reward: undefined };
      for (const other of result.alsoResolved ?? []) {
        await applyResolved(queryClient, owner, namespace, other, plain);
      }
    },
  });
}

/**
 * Applies a resolve's answer in place to the item's full view and every cached inbox page, so the list keeps
 * its scroll and pages. Reads of either still in flight may hold the old item, so they are stopped and asked
 * again (the full view always, for its history); resolves without waiting for them.
 */
export async function applyResolved(
  queryClient: QueryClient,
  owner: string,
  namespace: string,
  id: string,
  result: ResolveResult,
) {
  const item = queryKeys.item(owner, id);
  const inbox = [...queryKeys.namespace(owner, namespace), "inbox"];
  const [stopped] = await Promise.all([
    stopReadsInFlight(queryClient, [inbox]),
    stopReadsInFlight(queryClient, [item]),
  ]);
  queryClient.setQueryData<FeedbackRecord>(item, (old) => old && applied(old, result));
  queryClient.setQueriesData<InfiniteData<InboxPage>>(
    { queryKey: inbox },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          feedback: page.feedback.map((entry) => (entry.id === id ? applied(entry, result) : entry)),
        })),
      },
  );
  for (const queryKey of stopped) void queryClient.invalidateQueries({ queryKey, exact: true });
  void rereadAfterWrite(queryClient, [item, queryKeys.counts(owner, namespace), queryKeys.namespaces(owner)]);
}
