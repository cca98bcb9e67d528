import { api } from "../http";
import type { NamespaceAccess, OwnedNamespaces, Paid, RegisterResult } from "../types";
import { postPaid } from "./paid";

/** The signed-in wallet's namespaces with their open counts. */
export function fetchOwnedNamespaces(): Promise<OwnedNamespaces> {
  return api<OwnedNamespaces>("/api/dashboard/namespaces");
}

/** Whether the signed-in wallet owns `namespace`, or it is unregistered, or someone else's. */
export function fetchNamespaceAccess(namespace: string): Promise<NamespaceAccess> {
  return api<NamespaceAccess>(`/api/dashboard/namespace?${new URLSearchParams({ namespace })}`);
}

/** Registers a namespace; `pay` answers the 402 with a payment from the connected wallet. */
export function postRegister(
  pay: typeof fetch,
  input: { namespace: string; description?: string },
): Promise<Paid<RegisterResult>> {
  return postPaid<RegisterResult>(pay, "/api/namespace/register", input);
}
