import { useInfiniteQuery } from "@tanstack/react-query";
import { submissionsQuery } from "../queries";

/** What the signed-in wallet submitted, a page at a time. */
export function useSubmissions(owner: string) {
  return useInfiniteQuery(submissionsQuery(owner));
}
