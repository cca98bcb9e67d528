import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parseUsd } from "@/lib/money";
import { useClientConfig } from "../config";
import { fetchNamespaceAccess, postRegister } from "../fetchers/namespaces";
import { ApiError } from "../http";
import { namespaceAccessQuery, namespacesQuery, queryKeys } from "../queries";
import { rereadAfterWrite } from "./after-write";
import { usePayingFetch } from "./use-paying-fetch";

/** The signed-in wallet's namespaces. */
export function useOwnedNamespaces(owner: string) {
  return useQuery(namespacesQuery(owner));
}

/** Registers a namespace, paying the registration price from the connected wallet, once the name is known to be free. */
export function useRegisterNamespace(owner: string) {
  const queryClient = useQueryClient();
  const config = useClientConfig();
  const preparePay = usePayingFetch();
  return useMutation({
    mutationFn: async (input: { namespace: string; description?: string }) => {
      // A taken name is said before the wallet is asked for anything, and with no refused request (409).
      const { access } = await fetchNamespaceAccess(input.namespace);
      if (access !== "not-registered") {
        const whose =
          access === "owner"
            ? "You already own"
            : access === "member"
              ? "You are a member of"
              : "Another wallet has registered";
        throw new ApiError(409, "namespace-taken", `${whose} the namespace "${input.namespace}".`);
      }
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
