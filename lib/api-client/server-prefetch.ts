import "server-only";
import { type DehydratedState, dehydrate, QueryClient } from "@tanstack/react-query";
import { currentSession } from "@/lib/auth/browser-session";
import { countFeedback } from "@/lib/domain/feedback/count-feedback";
import { getFeedback } from "@/lib/domain/feedback/get-feedback";
import { listFeedback } from "@/lib/domain/feedback/list-feedback";
import { listSubmissions } from "@/lib/domain/feedback/list-submissions";
import { listOwnedNamespaces } from "@/lib/domain/namespace/list-owned-namespaces";
import { namespaceAccess } from "@/lib/domain/namespace/namespace-access";
import { listQuerySchema, statusQuerySchema } from "@/lib/schemas/list";
import { inboxListParams, parseInboxFilters } from "./inbox-filters";
import { queryKeys } from "./queries";

/**
 * Fetches the inbox's first page, counts and open item while the page renders, under the keys the browser's
 * React Query uses, so the rows arrive with the HTML instead of after the JavaScript. A refusal is left for
 * the browser to ask again and show as an error.
 */
export async function prefetchInbox(
  cookieHeader: string | null,
  namespace: string,
  search: Record<string, string | string[] | undefined>,
): Promise<DehydratedState | null> {
  const session = await currentSession(cookieHeader);
  if (!session) return null;
  const one = (key: string) => {
    const value = search[key];
    return Array.isArray(value) ? value.at(-1) : value;
  };
  const filters = parseInboxFilters(one);
  const query = listQuerySchema.safeParse(Object.fromEntries(inboxListParams(namespace, filters)));
  if (!query.success) return null;
  const owner = session.address;
  const item = one("item");
  const client = new QueryClient();
  const access = await namespaceAccess(session, namespace);
  client.setQueryData(queryKeys.access(owner, namespace), access);
  // Neither the owner's nor a member's: the page says so; there is no inbox to read.
  if (access.access !== "owner" && access.access !== "member") return dehydrate(client);
  await Promise.all([
    client.prefetchInfiniteQuery({
      queryKey: queryKeys.inbox(owner, namespace, filters),
      queryFn: () => listFeedback(session, query.data),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.nextCursor,
    }),
    client.prefetchQuery({
      queryKey: queryKeys.counts(owner, namespace),
      queryFn: () => countFeedback(session, namespace),
    }),
    item
      ? client.prefetchQuery({
          queryKey: queryKeys.item(owner, item),
          queryFn: () => getFeedback(session, item),
        })
      : null,
  ]);
  return dehydrate(client);
}

/** Whether the signed-in wallet owns `namespace`, known while its insights or webhooks page renders. */
export async function prefetchNamespaceAccess(
  cookieHeader: string | null,
  namespace: string,
): Promise<DehydratedState | null> {
  const session = await currentSession(cookieHeader);
  if (!session) return null;
  const client = new QueryClient();
  client.setQueryData(
    queryKeys.access(session.address, namespace),
    await namespaceAccess(session, namespace),
  );
  return dehydrate(client);
}

/** The owner's namespaces, fetched while /dashboard renders. */
export async function prefetchNamespaces(cookieHeader: string | null): Promise<DehydratedState | null> {
  const session = await currentSession(cookieHeader);
  if (!session) return null;
  const client = new QueryClient();
  await client.prefetchQuery({
    queryKey: queryKeys.namespaces(session.address),
    queryFn: () => listOwnedNamespaces(session),
  });
  return dehydrate(client);
}

/** The first page of the submitter's items, fetched while /submissions renders. */
export async function prefetchSubmissions(cookieHeader: string | null): Promise<DehydratedState | null> {
  const session = await currentSession(cookieHeader);
  if (!session) return null;
  const client = new QueryClient();
  await client.prefetchInfiniteQuery({
    queryKey: queryKeys.submissions(session.address),
    queryFn: () => listSubmissions(session, statusQuerySchema.parse({ limit: "50" })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  return dehydrate(client);
}
