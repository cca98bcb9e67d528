import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  fetchDeliveries,
  fetchWebhook,
  patchWebhook,
  postResendDelivery,
  postRotateSecret,
  postTestEvent,
  type WebhookChanges,
  type WebhookSettings,
} from "../fetchers/webhooks";
import { queryKeys } from "../queries";
import { rereadAfterWrite, stopReadsInFlight } from "./after-write";

const keys = {
  settings: (owner: string, namespace: string) =>
    [...queryKeys.namespace(owner, namespace), "webhook"] as const,
  deliveries: (owner: string, namespace: string) =>
    [...queryKeys.namespace(owner, namespace), "webhook-deliveries"] as const,
};

/** The namespace's webhook URL and secret. */
export function useWebhook(owner: string, namespace: string) {
  return useQuery({
    queryKey: keys.settings(owner, namespace),
    queryFn: () => fetchWebhook(namespace),
    enabled: owner !== "",
  });
}

/** The delivery log; refreshed every few seconds while something is still pending. */
export function useWebhookDeliveries(owner: string, namespace: string) {
  return useQuery({
    queryKey: keys.deliveries(owner, namespace),
    queryFn: () => fetchDeliveries(namespace),
    enabled: owner !== "",
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === "pending") ? 3_000 : false,
  });
}

function useSettingsMutation<T>(
  owner: string,
  namespace: string,
  run: (input: T) => Promise<WebhookSettings>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    // The answer is the settings as written: a read still in flight may predate it and must not land.
    onSuccess: async (settings) => {
      await stopReadsInFlight(queryClient, [keys.settings(owner, namespace)]);
      queryClient.setQueryData(keys.settings(owner, namespace), settings);
    },
  });
}

/** Changes or removes the URL. */
export function useSetWebhookUrl(owner: string, namespace: string) {
  return useSettingsMutation(owner, namespace, (url: string | null) => patchWebhook(namespace, { url }));
}

/** Changes the format, events or digest. */
export function useUpdateAlerts(owner: string, namespace: string) {
  return useSettingsMutation(owner, namespace, (changes: WebhookChanges) => patchWebhook(namespace, changes));
}

/** Replaces the signing secret. */
export function useRotateWebhookSecret(owner: string, namespace: string) {
  return useSettingsMutation(owner, namespace, () => postRotateSecret(namespace));
}

/** Queues a test event and refreshes the log. */
export function useSendTestEvent(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postTestEvent(namespace),
    onSuccess: () => rereadAfterWrite(queryClient, [keys.deliveries(owner, namespace)]),
  });
}

/** Re-sends one delivery and refreshes the log. */
export function useResendDelivery(owner: string, namespace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => postResendDelivery(namespace, id),
    onSettled: () => rereadAfterWrite(queryClient, [keys.deliveries(owner, namespace)]),
  });
}
