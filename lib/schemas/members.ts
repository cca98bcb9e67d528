import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { line } from "./text";

/** The roles a member of a namespace may hold, from the least to the most it may do (the owner is above all). */
export const MEMBER_ROLES = ["viewer", "triager", "admin"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * What an owner call needs of the caller's role (lib/auth/roles.ts grants them): read (the inbox, an item, the
 * export, insights, the known issues preview, the members); triage (statuses, labels, merges, hiding known
 * issues, resolving without a reward); reward, publish (the known issues), webhook, members (viewers and
 * triagers); ownership (admins, and the transfer).
 */
export type Permission = "read" | "triage" | "reward" | "publish" | "webhook" | "members" | "ownership";

/** Who may make a call that needs `permission`, in words (the OpenAPI document, llms.txt, docs). */
export const WHO_MAY: Record<Permission, string> = {
  read: "the owner and every member",
  triage: "the owner, admins and triagers",
  reward: "the owner and admins",
  publish: "the owner and admins",
  webhook: "the owner and admins",
  members: "the owner and admins (admins: the owner alone)",
  ownership: "the owner alone",
};

/** How long a proposed transfer of a namespace waits for its new owner. */
export const TRANSFER_DAYS = 7;

const namespace = line(3, 30);

/** A wallet address: 20 bytes of hex, all one case or with a valid checksum; answered checksummed. */
const wallet = z
  .string()
  .refine((v) => isAddress(v, { strict: true }), {
    error: "must be a 0x address of 20 bytes (mixed case only with a valid checksum)",
  })
  .transform((v) => getAddress(v))
  .meta({
    description: "A wallet address (0x…, 20 bytes)",
    example: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  });

const role = z.enum(MEMBER_ROLES, { error: `must be one of: ${MEMBER_ROLES.join(", ")}` }).meta({
  description:
    "viewer: reads the inbox; triager: also triages, labels, merges, hides known issues and resolves without a reward; admin: also rewards, publishes the known issues, manages the webhook and adds or removes viewers and triagers",
});

/** Query of GET /api/namespace/members. */
export const membersQuerySchema = z.strictObject({ namespace });

/** Body of POST /api/namespace/members: adds a member, or changes the role of one. */
export const addMemberSchema = z.strictObject({ namespace, wallet, role });
export type AddMemberInput = z.output<typeof addMemberSchema>;

/** Body of DELETE /api/namespace/members. */
export const removeMemberSchema = z.strictObject({ namespace, wallet });
export type RemoveMemberInput = z.output<typeof removeMemberSchema>;

/** Body of POST /api/namespace/transfer: proposes a new owner, replacing a proposal still pending. */
export const proposeTransferSchema = z.strictObject({
  namespace,
  to: wallet.meta({ description: "The wallet proposed as the new owner: it accepts, signed in" }),
});
export type ProposeTransferInput = z.output<typeof proposeTransferSchema>;

/** Body of DELETE /api/namespace/transfer and POST /api/namespace/transfer/accept. */
export const namespaceOnlySchema = z.strictObject({ namespace });

const timestamp = z.string().meta({ description: "ISO 8601 UTC timestamp with milliseconds" });
const address = z.string().meta({ description: "A wallet address, checksummed" });
const pendingTransfer = z.strictObject({ to: address, proposedAt: timestamp, expiresAt: timestamp });

/** 200 of GET /api/namespace/members. */
export const membersResponseSchema = z.strictObject({
  namespace: z.string(),
  owner: address,
  members: z.array(
    z.strictObject({
      wallet: address,
      role: z.enum(MEMBER_ROLES),
      addedAt: timestamp,
      addedBy: address.meta({ description: "The wallet that added it, or last changed its role" }),
    }),
  ),
  pendingTransfer: pendingTransfer.nullable().meta({
    description: `A transfer proposed by the owner and not yet accepted (it expires after ${TRANSFER_DAYS} days); null when none`,
  }),
});

/** 200 of POST /api/namespace/members. */
export const memberResponseSchema = z.strictObject({
  namespace: z.string(),
  wallet: address,
  role: z.enum(MEMBER_ROLES),
  addedAt: timestamp,
});

/** 200 of DELETE /api/namespace/members. */
export const memberRemovedSchema = z.strictObject({
  namespace: z.string(),
  wallet: address,
  removed: z.literal(true),
});

/** 200 of POST /api/namespace/transfer. */
export const transferProposedSchema = z.strictObject({ namespace: z.string(), ...pendingTransfer.shape });

/** 200 of DELETE /api/namespace/transfer. */
export const transferCancelledSchema = z.strictObject({
  namespace: z.string(),
  cancelled: z.boolean().meta({ description: "false when no transfer was pending" }),
});

/** 200 of POST /api/namespace/transfer/accept. */
export const transferAcceptedSchema = z.strictObject({ namespace: z.string(), ownerWallet: address });
