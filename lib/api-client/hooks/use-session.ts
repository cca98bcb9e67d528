import { useQuery } from "@tanstack/react-query";
import { sessionQuery } from "../queries";

/** The browser's session (null when signed out) and whether it is still being checked. */
export function useSession() {
  const query = useQuery(sessionQuery());
  return { session: query.data ?? null, isPending: query.isPending, error: query.error };
}
