import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { fetchCounts, fetchFeedback, fetchInboxPage } from "./fetchers/feedback";
import { fetchInsights, type InsightsPeriod } from "./fetchers/insights";
import { fetchNamespaceAccess, fetchOwnedNamespaces } from "./fetchers/namespaces";
import { fetchSession } from "./fetchers/session";
import { fetchSubmissionsPage } from "./fetchers/submissions";
import type { InboxFilters } from "./types";

// Every signed-in key starts with the wallet, so another wallet's session never sees cached data.
export const queryKeys = {
  session: ["session"] as const,
  owner: (owner: string) => ["owner", owner.toLowerCase()] as const,
  namespaces: (owner: string) => [...queryKeys.owner(owner), "namespaces"] as const,
  namespace: (owner: string, namespace: string) => [...queryKeys.owner(owner), "ns", namespace] as const,
  access: (owner: string, namespace: string) => [...queryKeys.namespace(owner, namespace), "access"] as const,
  inbox: (owner: string, namespace: string, filters: InboxFilters) =>
    [...queryKeys.namespace(owner, namespace), "inbox", filters] as const,
  counts: (owner: string, namespace: string) => [...queryKeys.namespace(owner, namespace), "counts"] as const,
  insights: (owner: string, namespace: string, period: InsightsPeriod) =>
    [...queryKeys.namespace(owner, namespace), "insights", period] as const,
  item: (owner: string, id: string) => [...queryKeys.owner(owner), "item", id] as const,
  submissions: (owner: string) => [...queryKeys.owner(owner), "submissions"] as const,
};

export const sessionQuery = () =>
  queryOptions({ queryKey: queryKeys.session, queryFn: fetchSession, staleTime: 5 * 60_000 });

export const namespacesQuery = (owner: string) =>
  queryOptions({ queryKey: queryKeys.namespaces(owner), queryFn: fetchOwnedNamespaces });

export const namespaceAccessQuery = (owner: string, namespace: string) =>
  queryOptions({
    queryKey: queryKeys.access(owner, namespace),
    queryFn: () => fetchNamespaceAccess(namespace),
    // Who holds a name changes only when it is registered: from this page, which reads it again then.
    staleTime: 5 * 60_000,
  });

export const inboxQuery = (owner: string, namespace: string, filters: InboxFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.inbox(owner, namespace, filters),
    queryFn: ({ pageParam }) => fetchInboxPage(namespace, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });

export const countsQuery = (owner: string, namespace: string) =>
  queryOptions({ queryKey: queryKeys.counts(owner, namespace), queryFn: () => fetchCounts(namespace) });

export const insightsQuery = (owner: string, namespace: string, period: InsightsPeriod) =>
  queryOptions({
    queryKey: queryKeys.insights(owner, namespace, period),
    queryFn: () => fetchInsights(namespace, period),
    // Figures over days move slowly: a minute without asking again is fresh enough.
    staleTime: 60_000,
  });

export const itemQuery = (owner: string, id: string) =>
  queryOptions({ queryKey: queryKeys.item(owner, id), queryFn: () => fetchFeedback(id) });

export const submissionsQuery = (owner: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.submissions(owner),
    queryFn: ({ pageParam }) => fetchSubmissionsPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
