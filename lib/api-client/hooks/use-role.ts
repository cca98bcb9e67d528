import { may, type Permission, type Role } from "@/lib/auth/roles";
import { useNamespaceAccess } from "./use-namespaces";
import { useSession } from "./use-session";

/**
 * The signed-in wallet's role in a namespace, and whether it may do what a permission names: the dashboard
 * shows a control only to a role the service lets use it (lib/auth/roles.ts, the table the service asks).
 */
export function useRole(namespace: string): { role: Role | null; may: (permission: Permission) => boolean } {
  const { session } = useSession();
  const access = useNamespaceAccess(session?.address ?? "", namespace);
  const role = access.data && "role" in access.data ? access.data.role : null;
  return { role, may: (permission) => role !== null && may(role, permission) };
}
