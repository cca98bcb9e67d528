import { useMutation, useQueryClient } from "@tanstack/react-query";
import { postStatus } from "../fetchers/feedback";
import { queryKeys } from "../queries";
import type { FeedbackStatus } from "../types";

type Input = { ids: string[]; status: FeedbackStatus; message: string };

/** Moves items to a triage status; the inbox, counts and each item's full view are read again. */
export function useChangeStatus(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, status, message }: Input) =>
      postStatus({
        namespace,
        feedbackIds: ids,
        status,
        ...(message.trim() ? { message: message.trim() } : {}),
      }),
    onSuccess: (_, { ids }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.namespace(owner, namespace) });
      for (const id of ids) void queryClient.invalidateQueries({ queryKey: queryKeys.item(owner, id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.namespaces(owner) });
    },
  });
}
