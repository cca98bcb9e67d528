import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { MEMBER_ROLES, type MemberRole } from "@/lib/schemas/members";
import { instant } from "./columns";

const ROLES = sql.raw(MEMBER_ROLES.map((r) => `'${r}'`).join(", "));

/**
 * The team of a namespace beside its owner: one row a wallet, with exactly one role. Wallets are stored
 * checksummed (viem's getAddress), as the sign-in names them, so a member is found by equality.
 */
export const namespaceMembers = pgTable(
  "namespace_members",
  {
    namespace: text("namespace").notNull(),
    wallet: text("wallet").notNull(),
    role: text("role").$type<MemberRole>().notNull(),
    addedAt: instant("added_at").notNull(),
    /** The wallet that added it, or last changed its role. */
    addedBy: text("added_by").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.namespace, t.wallet] }),
    // The namespaces a wallet belongs to (the dashboard's list).
    index("namespace_members_wallet_idx").on(t.wallet),
    check("namespace_members_role_check", sql`${t.role} in (${ROLES})`),
  ],
);
