"use client";

import { useState } from "react";
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

/** The page's actions that answer with a banner; only the latest one's shows, never a stack of stale ones. */
export type WebhookAction = "url" | "alerts" | "test";

/**
 * A namespace's webhook: where events go, the secret that signs them, the alert format, events and
 * digest, a test event and the delivery log.
 */
export function WebhookSettings({ namespace }: { namespace: string }) {
  const { session } = useSession();
  const owner = session?.address ?? "";
  const settings = useWebhook(owner, namespace);
  const test = useSendTestEvent(owner, namespace);
  const [latest, setLatest] = useState<WebhookAction | null>(null);
  // A test is sent as the settings are saved: with a change on screen not applied, it would not show it.
  const [unapplied, setUnapplied] = useState(false);

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
            latest={latest === "url"}
            onAct={() => setLatest("url")}
          />
          {/* Chat messages are not signed: their secret would only mislead (it is kept for a switch back). */}
          {settings.data.secret && settings.data.format === "standard" ? (
            <WebhookSecret owner={owner} namespace={namespace} secret={settings.data.secret} />
          ) : null}
          <AlertSettings
            owner={owner}
            namespace={namespace}
            settings={settings.data}
            latest={latest === "alerts"}
            onAct={() => setLatest("alerts")}
            onUnapplied={setUnapplied}
          />
          <div className="space-y-2">
            <Button
              variant="secondary"
              busy={test.isPending}
              disabled={!settings.data.url || unapplied}
              aria-describedby={unapplied ? "test-event-unapplied" : undefined}
              onClick={() => {
                setLatest("test");
                test.mutate();
              }}
            >
              Send test event
            </Button>
            {unapplied ? (
              <p id="test-event-unapplied" className="text-xs text-zinc-600">
                Apply or undo your alert changes first: a test event is sent as the settings are saved.
              </p>
            ) : null}
            {test.isError && latest === "test" ? (
              <Notice tone="error">{explainError(test.error, "save")}</Notice>
            ) : null}
            {test.isSuccess && latest === "test" ? (
              <Notice tone="success">Test event queued; watch the log below.</Notice>
            ) : null}
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
