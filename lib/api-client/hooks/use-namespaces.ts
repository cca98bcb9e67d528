import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parseUsd } from "@/lib/money";
import { useClientConfig } from "../config";
import { postRegister } from "../fetchers/namespaces";
import { namespaceAccessQuery, namespacesQuery, queryKeys } from "../queries";
import { rereadAfterWrite } from "./after-write";
import { usePayingFetch } from "./use-paying-fetch";

/** The signed-in wallet's namespaces. */
export function useOwnedNamespaces(owner: string) {
  return useQuery(namespacesQuery(owner));
}

/** Registers a namespace, paying the registration price from the connected wallet. */
export function useRegisterNamespace(owner: string) {
  const queryClient = useQueryClient();
  const config = useClientConfig();
  const preparePay = usePayingFetch();
  return useMutation({
    mutationFn: async (input: { namespace: string; description?: string }) => {
      const pay = await preparePay(parseUsd(config.prices.register) ?? 0n);
      return postRegister(pay, input);
    },
    onSuccess: (_, { namespace }) =>
      rereadAfterWrite(queryClient, [queryKeys.namespaces(owner), queryKeys.access(owner, namespace)]),
  });
}

/** Whether the signed-in wallet owns `namespace`, or it is unregistered, or someone else's. */
export function useNamespaceAccess(owner: string, namespace: string) {
  return useQuery({ ...namespaceAccessQuery(owner, namespace), enabled: owner !== "" });
}
