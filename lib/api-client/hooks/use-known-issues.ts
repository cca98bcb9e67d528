import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchKnownIssues, type KnownIssuesChanges, patchKnownIssues } from "../fetchers/known-issues";
import { queryKeys } from "../queries";

const key = (owner: string, namespace: string) =>
  [...queryKeys.namespace(owner, namespace), "known-issues"] as const;

/** The namespace's known issues, for its owner. */
export function useKnownIssues(owner: string, namespace: string) {
  return useQuery({
    queryKey: key(owner, namespace),
    queryFn: () => fetchKnownIssues(namespace),
    enabled: owner !== "",
  });
}

/** Publishes, withdraws, hides or shows; the list is read again once the change is written. */
export function useChangeKnownIssues(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: KnownIssuesChanges) => patchKnownIssues(namespace, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(owner, namespace) }),
  });
}
