import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { parseUsd } from "@/lib/money";
import { useClientConfig } from "../config";
import { patchCallback, postConfirm, postFollowUp } from "../fetchers/submissions";
import { queryKeys, submissionsQuery } from "../queries";
import { rereadAfterWrite } from "./after-write";
import { usePayingFetch } from "./use-paying-fetch";

/** What the signed-in wallet submitted, a page at a time. */
export function useSubmissions(owner: string) {
  return useInfiniteQuery(submissionsQuery(owner));
}

/**
 * Answers an owner's question on one of the wallet's items, paying the follow-up price from the connected
 * wallet through the same 402 flow as a tip; the submissions are read again, history and all.
 */
export function useAnswerOwner(owner: string) {
  const queryClient = useQueryClient();
  const config = useClientConfig();
  const preparePay = usePayingFetch();
  return useMutation({
    mutationFn: async (input: { feedbackId: string; message: string }) => {
      const pay = await preparePay(parseUsd(config.prices.followUp) ?? 0n);
      return postFollowUp(pay, { feedbackId: input.feedbackId, message: input.message.trim() });
    },
    onSuccess: () => rereadAfterWrite(queryClient, [queryKeys.submissions(owner)]),
  });
}

/** Says whether the resolution of one of the wallet's items fixed it; the submissions are read again. */
export function useConfirmFix(owner: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; outcome: "fixed" | "not_fixed"; note: string }) =>
      postConfirm({
        id: input.id,
        outcome: input.outcome,
        ...(input.note.trim() ? { note: input.note.trim() } : {}),
      }),
    onSuccess: () => rereadAfterWrite(queryClient, [queryKeys.submissions(owner)]),
  });
}

/** Sets or removes the callback of one of the wallet's reports; the submissions are read again. */
export function useSetCallback(owner: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: patchCallback,
    onSuccess: () => rereadAfterWrite(queryClient, [queryKeys.submissions(owner)]),
  });
}
