import type { z } from "zod";
import type { membersResponseSchema } from "@/lib/schemas/members";
import { api } from "../http";

export type MembersView = z.output<typeof membersResponseSchema>;
export type MemberRoleName = MembersView["members"][number]["role"];

const send = <T>(method: string, path: string, body: Record<string, unknown>) =>
  api<T>(`/api/namespace/${path}`, { method, body: JSON.stringify(body) });

/** The namespace's owner, members and pending transfer. */
export function fetchMembers(namespace: string): Promise<MembersView> {
  return api<MembersView>(`/api/namespace/members?${new URLSearchParams({ namespace })}`);
}

/** Adds a member, or changes its role. */
export const putMember = (namespace: string, wallet: string, role: MemberRoleName) =>
  send("POST", "members", { namespace, wallet, role });

/** Removes a member. */
export const deleteMember = (namespace: string, wallet: string) =>
  send("DELETE", "members", { namespace, wallet });

/** Proposes a new owner. */
export const postTransfer = (namespace: string, to: string) => send("POST", "transfer", { namespace, to });

/** Withdraws the pending transfer. */
export const deleteTransfer = (namespace: string) => send("DELETE", "transfer", { namespace });

/** Accepts a namespace proposed to the signed-in wallet. */
export const postAcceptTransfer = (namespace: string) =>
  send<{ namespace: string; ownerWallet: string }>("POST", "transfer/accept", { namespace });
