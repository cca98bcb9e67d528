"use client";

import { BackToInbox } from "@/components/layout/back-to-inbox";
import { Button } from "@/components/ui/button";
import { ErrorState, Loading, Notice } from "@/components/ui/states";
import { explainError, isRetryable } from "@/lib/api-client/explain";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { useSendTestEvent, useWebhook } from "@/lib/api-client/hooks/use-webhooks";
import { AlertSettings } from "./alert-settings";
import { DeliveryLog } from "./delivery-log";
import { WebhookSecret } from "./webhook-secret";
import { WebhookUrlForm } from "./webhook-url-form";

/**
 * A namespace's webhook: where events go, the secret that signs them, the alert format, events and
 * digest, a test event and the delivery log.
 */
export function WebhookSettings({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const owner = session?.address ?? "";
  const settings = useWebhook(owner, namespace);
  const test = useSendTestEvent(owner, namespace);

  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-6 sm:px-6">
      <div className="flex items-center gap-2">
        <BackToInbox namespace={namespace} />
        <h1 className="text-lg font-semibold tracking-tight">
          <span className="font-mono">{namespace}</span> · Webhooks
        </h1>
      </div>
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <ErrorState
          message={explainError(settings.error, "load")}
          onRetry={isRetryable(settings.error) ? () => settings.refetch() : undefined}
        />
      ) : (
        <section className="space-y-6 rounded-xl border border-zinc-200 bg-white p-5">
          <WebhookUrlForm
            owner={owner}
            namespace={namespace}
            url={settings.data.url}
            format={settings.data.format}
          />
          {/* Chat messages are not signed: their secret would only mislead (it is kept for a switch back). */}
          {settings.data.secret && settings.data.format === "standard" ? (
            <WebhookSecret owner={owner} namespace={namespace} secret={settings.data.secret} />
          ) : null}
          <AlertSettings owner={owner} namespace={namespace} settings={settings.data} />
          <div className="space-y-2">
            <Button
              variant="secondary"
              busy={test.isPending}
              disabled={!settings.data.url}
              onClick={() => test.mutate()}
            >
              Send test event
            </Button>
            {test.isError ? <Notice tone="error">{explainError(test.error, "save")}</Notice> : null}
            {test.isSuccess ? <Notice tone="success">Test event queued; watch the log below.</Notice> : null}
          </div>
        </section>
      )}
      <section className="space-y-3">
        <h2 className="font-medium">Deliveries</h2>
        <div className="rounded-xl border border-zinc-200 bg-white">
          <DeliveryLog owner={owner} namespace={namespace} />
        </div>
      </section>
    </div>
  );
}
