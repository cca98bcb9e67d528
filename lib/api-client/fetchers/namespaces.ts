import { api } from "../http";
import type { OwnedNamespaces, Paid, RegisterResult } from "../types";
import { postPaid } from "./paid";

/** The signed-in wallet's namespaces with their open counts. */
export function fetchOwnedNamespaces(): Promise<OwnedNamespaces> {
  return api<OwnedNamespaces>("/api/dashboard/namespaces");
}

/** Registers a namespace; `pay` answers the 402 with a payment from the connected wallet. */
export function postRegister(
  pay: typeof fetch,
  input: { namespace: string; description?: string },
): Promise<Paid<RegisterResult>> {
  return postPaid<RegisterResult>(pay, "/api/namespace/register", input);
}
