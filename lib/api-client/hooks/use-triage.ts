import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { postLabels, postMerge, postStatus, postUnmerge } from "../fetchers/feedback";
import { type Moved, undoSteps } from "../merge-undo";
import { queryKeys } from "../queries";
import type { FeedbackStatus } from "../types";
import { rereadAfterWrite } from "./after-write";

type Input = { ids: string[]; status: FeedbackStatus; message: string };

/** After a triage change: the inbox, counts and the changed items' full views are read again. */
function refresh(queryClient: QueryClient, owner: string, namespace: string, ids: string[]) {
  return rereadAfterWrite(queryClient, [
    queryKeys.namespace(owner, namespace),
    ...ids.map((id) => queryKeys.item(owner, id)),
    queryKeys.namespaces(owner),
  ]);
}

/** Moves items to a triage status, with a message for their submitters. */
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
    onSuccess: (_, { ids }) => void refresh(queryClient, owner, namespace, ids),
  });
}

/** Files reports under one group of duplicates. */
export function useMerge(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ into, ids }: { into: string; ids: string[] }) =>
      postMerge({ namespace, into, feedbackIds: ids }),
    onSuccess: (_, { into, ids }) => void refresh(queryClient, owner, namespace, [into, ...ids]),
  });
}

/**
 * Undoes a merge in one step, from its answer's `moved`: the reports leave the merged group, and those that
 * were in another group go back under its head (reports the service had only suggested come back merged).
 */
export function useUndoMerge(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ moved }: { moved: Moved[]; head: string }) => {
      const steps = undoSteps(moved);
      if (steps.unmerge.length > 0) await postUnmerge({ namespace, feedbackIds: steps.unmerge });
      for (const { into, ids } of steps.merge) await postMerge({ namespace, into, feedbackIds: ids });
    },
    // Read again whether or not it finished: a half-done undo shows as it is, and running it again finishes it.
    onSettled: (_, __, { moved, head }) =>
      void refresh(queryClient, owner, namespace, [head, ...moved.map((m) => m.id)]),
  });
}

/** Takes reports out of their groups. */
export function useUnmerge(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids }: { ids: string[]; head: string }) => postUnmerge({ namespace, feedbackIds: ids }),
    onSuccess: (_, { ids, head }) => void refresh(queryClient, owner, namespace, [head, ...ids]),
  });
}

/** Adds and removes the owner's labels on items. */
export function useChangeLabels(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, add = [], remove = [] }: { ids: string[]; add?: string[]; remove?: string[] }) =>
      postLabels({ namespace, feedbackIds: ids, add, remove }),
    onSuccess: (_, { ids }) => void refresh(queryClient, owner, namespace, ids),
  });
}
