"use client";

import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import type { WebhookSettings } from "@/lib/api-client/fetchers/webhooks";
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS } from "@/lib/api-client/form-schemas";
import { useUpdateAlerts } from "@/lib/api-client/hooks/use-webhooks";

type Format = WebhookSettings["format"];
type EventType = WebhookSettings["events"][number];

const FORMAT_LABELS: Record<Format, string> = {
  standard: "Signed JSON (Standard Webhooks)",
  slack: "Slack message",
  discord: "Discord message",
};
const FORMAT_HINTS: Record<Format, string> = {
  standard: "Each delivery is JSON signed with the signing secret above.",
  slack:
    "For a Slack incoming-webhook URL. One message per action: a group resolved at once is one message. Not signed: the URL itself is the credential.",
  discord:
    "For a Discord webhook URL. One message per action, never mentioning anyone. Not signed: the URL itself is the credential.",
};
const EVENT_LABELS: Record<EventType, string> = {
  "feedback.created": "New items",
  "feedback.resolved": "Resolutions",
  "feedback.status_changed": "Status changes",
  "feedback.confirmed": "Fixes confirmed",
  "feedback.disputed": "Fixes disputed",
  "reward.paid": "Rewards paid",
};

type Draft = Pick<WebhookSettings, "format" | "events" | "digest">;
const draftOf = (s: WebhookSettings): Draft => ({ format: s.format, events: s.events, digest: s.digest });
const same = (a: Draft, b: Draft) =>
  a.format === b.format && a.digest === b.digest && a.events.join() === b.events.join();

/** How alerts are sent: the message format, which events go out as they happen, and a daily digest. */
export function AlertSettings({
  owner,
  namespace,
  settings,
  latest,
  onAct,
  onUnapplied,
}: {
  owner: string;
  namespace: string;
  settings: WebhookSettings;
  /** Whether applying these settings is the page's latest action (its banner shows only then). */
  latest: boolean;
  onAct: () => void;
  /** Told whether a change is on screen and not applied. */
  onUnapplied: (unapplied: boolean) => void;
}) {
  const saved = draftOf(settings);
  const [draft, setDraft] = useState(saved);
  const update = useUpdateAlerts(owner, namespace);
  const formatId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the stored settings change
  useEffect(() => setDraft(draftOf(settings)), [settings.format, settings.digest, settings.events.join()]);
  const changed = !same(draft, saved);
  useEffect(() => onUnapplied(changed), [changed, onUnapplied]);

  function toggle(event: EventType, on: boolean) {
    const chosen = new Set(draft.events);
    if (on) chosen.add(event);
    else chosen.delete(event);
    setDraft({ ...draft, events: WEBHOOK_EVENTS.filter((e) => chosen.has(e)) });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    onAct();
    update.mutate(draft);
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Alerts">
      <p className="text-sm font-medium text-zinc-800">Alerts</p>
      <div className="space-y-1">
        <label htmlFor={formatId} className="block text-sm text-zinc-700">
          Message format
        </label>
        <select
          id={formatId}
          value={draft.format}
          onChange={(e) => setDraft({ ...draft, format: e.target.value as Format })}
          className="h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
        >
          {WEBHOOK_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
        <p className="text-xs text-zinc-500">{FORMAT_HINTS[draft.format]}</p>
      </div>
      <fieldset className="space-y-1">
        <legend className="text-sm text-zinc-700">Send as they happen</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-1">
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm" title={event}>
              <input
                type="checkbox"
                checked={draft.events.includes(event)}
                onChange={(e) => toggle(event, e.target.checked)}
                className="size-4 accent-indigo-600"
              />
              {EVENT_LABELS[event]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          checked={draft.digest === "daily"}
          onChange={(e) => setDraft({ ...draft, digest: e.target.checked ? "daily" : "off" })}
          className="mt-0.5 size-4 accent-indigo-600"
        />
        <span>
          Daily digest
          <span className="block text-xs text-zinc-500">
            One summary a day, shortly after 00:00 UTC, of the day before: new items, status changes and
            rewards. Nothing is sent for a quiet day.
          </span>
        </span>
      </label>
      <Button type="submit" variant="secondary" busy={update.isPending} disabled={!changed}>
        Apply alert settings
      </Button>
      {update.isError ? <Notice tone="error">{explainError(update.error, "save")}</Notice> : null}
      {update.isSuccess && !changed && latest ? (
        <Notice tone="success">Alert settings applied.</Notice>
      ) : null}
    </form>
  );
}
