import { EXAMPLES } from "../examples";
import {
  addMemberSchema,
  memberRemovedSchema,
  memberResponseSchema,
  membersQuerySchema,
  membersResponseSchema,
  namespaceOnlySchema,
  proposeTransferSchema,
  removeMemberSchema,
  TRANSFER_DAYS,
  transferAcceptedSchema,
  transferCancelledSchema,
  transferProposedSchema,
} from "../members";
import type { Operation } from "./operation";

/** A namespace's team: members with roles beside its owner, and handing the namespace to a new owner. */

export const members = {
  name: "members",
  operationId: "namespace_members",
  method: "GET",
  path: "/api/namespace/members",
  tags: ["Owners"],
  summary: "The namespace's owner, its members with their roles, and a pending transfer",
  description:
    "Roles: viewer reads the inbox (list, an item, export, insights, the known issues preview, the members); triager also triages (statuses, labels, merges, hiding known issues) and resolves without a reward; admin also resolves with a reward paid from its own wallet, publishes the known issues, manages the webhook and adds or removes viewers and triagers; the owner may everything, and alone manages admins and transfers the namespace.",
  access: "sign-in",
  permission: "read",
  query: membersQuerySchema,
  output: { component: "Members", schema: membersResponseSchema },
  example: EXAMPLES.members,
  tool: {
    name: "list_members",
    title: "The team of a namespace",
    description: "Who may read and act on a namespace's inbox: its owner and each member's role.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
} as const satisfies Operation;

export const addMember = {
  name: "member-add",
  operationId: "namespace_member_add",
  method: "POST",
  path: "/api/namespace/members",
  tags: ["Owners"],
  summary: "Add a member with a role, or change a member's role",
  description:
    "A member is listed once: adding it again changes its role. Viewers and triagers are added by the owner or an admin, admins by the owner alone. The owner cannot be added (400 naming wallet).",
  access: "sign-in",
  permission: "members",
  body: addMemberSchema,
  output: { component: "Member", schema: memberResponseSchema },
  example: EXAMPLES.memberAdd,
  tool: {
    name: "add_member",
    title: "Add a member",
    description: "Give a wallet a role in a namespace (viewer, triager or admin), or change its role.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
} as const satisfies Operation;

export const removeMember = {
  name: "member-remove",
  operationId: "namespace_member_remove",
  method: "DELETE",
  path: "/api/namespace/members",
  tags: ["Owners"],
  summary: "Remove a member",
  description:
    "From its very next call the wallet reads and does nothing in the namespace, open dashboard sessions included. Viewers and triagers are removed by the owner or an admin, admins by the owner alone; any member may remove itself. The owner cannot be removed (400 naming wallet).",
  access: "sign-in",
  permission: "members",
  body: removeMemberSchema,
  output: { component: "MemberRemoved", schema: memberRemovedSchema },
  example: EXAMPLES.memberRemove,
  errors: { "404": "No such namespace, or the wallet is not a member of it (errors names wallet)" },
  tool: {
    name: "remove_member",
    title: "Remove a member",
    description: "Take a wallet off a namespace's team.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
} as const satisfies Operation;

export const proposeTransfer = {
  name: "transfer",
  operationId: "namespace_transfer",
  method: "POST",
  path: "/api/namespace/transfer",
  tags: ["Owners"],
  summary: "Propose a new owner for the namespace",
  description: `The owner names the wallet that should own the namespace; nothing changes until that wallet accepts (POST /api/namespace/transfer/accept) within ${TRANSFER_DAYS} days. A new proposal replaces the pending one. The proposed wallet has no access before it accepts.`,
  access: "sign-in",
  permission: "ownership",
  body: proposeTransferSchema,
  output: { component: "TransferProposed", schema: transferProposedSchema },
  example: EXAMPLES.transfer,
  tool: {
    name: "propose_transfer",
    title: "Propose a new owner",
    description: "Offer a namespace to another wallet, which owns it once it accepts.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
} as const satisfies Operation;

export const cancelTransfer = {
  name: "transfer-cancel",
  operationId: "namespace_transfer_cancel",
  method: "DELETE",
  path: "/api/namespace/transfer",
  tags: ["Owners"],
  summary: "Withdraw the pending transfer",
  access: "sign-in",
  permission: "ownership",
  body: namespaceOnlySchema,
  output: { component: "TransferCancelled", schema: transferCancelledSchema },
  example: EXAMPLES.transferCancel,
  tool: {
    name: "cancel_transfer",
    title: "Withdraw a proposed transfer",
    description: "Cancel the transfer of a namespace that its proposed owner has not accepted yet.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
} as const satisfies Operation;

export const acceptTransfer = {
  name: "transfer-accept",
  operationId: "namespace_transfer_accept",
  method: "POST",
  path: "/api/namespace/transfer/accept",
  tags: ["Owners"],
  summary: "Accept a namespace proposed to you, and own it",
  description:
    "Signed in as the wallet the owner proposed, before the proposal lapses: from then on it is the owner (every read and check, and ownerWallet), and the previous owner stays as an admin until the new owner removes it. Any other wallet, or a lapsed, cancelled or replaced proposal, gets 403.",
  access: "sign-in",
  body: namespaceOnlySchema,
  output: { component: "TransferAccepted", schema: transferAcceptedSchema },
  example: EXAMPLES.transferAccept,
  errors: { "403": "No transfer of this namespace to the signed-in wallet is pending" },
  tool: {
    name: "accept_transfer",
    title: "Accept a namespace",
    description: "Become the owner of a namespace its owner proposed to your wallet.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
} as const satisfies Operation;
