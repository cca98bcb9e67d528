import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  deleteMember,
  deleteTransfer,
  fetchMembers,
  type MemberRoleName,
  postAcceptTransfer,
  postTransfer,
  putMember,
} from "../fetchers/members";
import { queryKeys } from "../queries";

const key = (owner: string, namespace: string) =>
  [...queryKeys.namespace(owner, namespace), "members"] as const;

/** The namespace's team, for its owner and members. */
export function useMembers(owner: string, namespace: string) {
  return useQuery({
    queryKey: key(owner, namespace),
    queryFn: () => fetchMembers(namespace),
    enabled: owner !== "",
  });
}

type Change =
  | { kind: "put"; wallet: string; role: MemberRoleName }
  | { kind: "remove"; wallet: string }
  | { kind: "propose"; to: string }
  | { kind: "cancel" };

/** Adds, changes or removes a member, proposes or withdraws a transfer; the team is read again after. */
export function useChangeMembers(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Change): Promise<unknown> => {
      if (change.kind === "put") return putMember(namespace, change.wallet, change.role);
      if (change.kind === "remove") return deleteMember(namespace, change.wallet);
      if (change.kind === "propose") return postTransfer(namespace, change.to);
      return deleteTransfer(namespace);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.owner(owner) }),
  });
}

/** Accepts the namespace; every cached view of the wallet is read again (it owns one more now). */
export function useAcceptTransfer(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postAcceptTransfer(namespace),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.owner(owner) }),
  });
}
