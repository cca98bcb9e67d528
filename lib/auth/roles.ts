import type { MemberRole, Permission } from "@/lib/schemas/members";

export type { Permission };

/**
 * Who may do what in a namespace: one table, asked in one place (requireAccess in lib/domain/namespace). The
 * operation catalogue names each owner call's permission, so the route, the OpenAPI document, the MCP tools
 * and the dashboard's controls agree by construction.
 */
export type Role = "owner" | MemberRole;

const VIEWER: readonly Permission[] = ["read"];
const TRIAGER: readonly Permission[] = [...VIEWER, "triage"];
const ADMIN: readonly Permission[] = [...TRIAGER, "reward", "publish", "webhook", "members"];
const OWNER: readonly Permission[] = [...ADMIN, "ownership"];

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  viewer: new Set(VIEWER),
  triager: new Set(TRIAGER),
  admin: new Set(ADMIN),
  owner: new Set(OWNER),
};

/** Whether `role` may do what `permission` names. */
export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

/** The least role that may: what a refusal tells the caller it would need. */
export function leastRoleFor(permission: Permission): Role {
  return (["viewer", "triager", "admin", "owner"] as const).find((r) => may(r, permission))!;
}

/** A member role's permission to add or remove it: admins are the owner's to manage, the rest an admin's. */
export const manages = (role: MemberRole): Permission => (role === "admin" ? "ownership" : "members");
