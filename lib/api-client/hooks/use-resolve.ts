import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import { formatUsd } from "@/lib/money";
import { postResolve } from "../fetchers/feedback";
import { queryKeys } from "../queries";
import type { FeedbackRecord, InboxItem, InboxPage, ResolveResult } from "../types";
import { usePayingFetch } from "./use-paying-fetch";

type ResolveInput = { id: string; message: string; rewardMicroUsd: bigint };

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
    mutationFn: async ({ id, message, rewardMicroUsd }: ResolveInput) => {
      const tipped = rewardMicroUsd > 0n;
      const pay = tipped ? await preparePay(rewardMicroUsd) : plainFetch;
      return postResolve(pay, {
        feedbackId: id,
        ...(message.trim() ? { message: message.trim() } : {}),
        ...(tipped ? { rewardAmount: formatUsd(rewardMicroUsd) } : {}),
      });
    },
    onSuccess: ({ result }, { id }) => {
      queryClient.setQueryData<FeedbackRecord>(
        queryKeys.item(owner, id),
        (old) => old && applied(old, result),
      );
      queryClient.setQueriesData<InfiniteData<InboxPage>>(
        { queryKey: [...queryKeys.namespace(owner, namespace), "inbox"] },
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              feedback: page.feedback.map((item) => (item.id === id ? applied(item, result) : item)),
            })),
          },
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.counts(owner, namespace) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.namespaces(owner) });
    },
  });
}
