"use client";

import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import type { WebhookSettings } from "@/lib/api-client/fetchers/webhooks";
import { useSetWebhookUrl } from "@/lib/api-client/hooks/use-webhooks";
import { MaskedValue } from "./masked-value";
import { checkTypedUrl, isChatWebhookUrl, maskUrl, urlProblemOf } from "./url-problems";

/**
 * The webhook URL, editable; an empty field removes it. A Slack or Discord URL is a credential, so
 * once saved it is masked like the signing secret until revealed or changed. Problems are said in
 * the form's own words, under the field: the browser's tooltip is off (noValidate).
 */
export function WebhookUrlForm({
  owner,
  namespace,
  url,
  format,
  latest,
  onAct,
}: {
  owner: string;
  namespace: string;
  url: string | null;
  format: WebhookSettings["format"];
  /** Whether this form's save is the page's latest action (its banner shows only then). */
  latest: boolean;
  onAct: () => void;
}) {
  const [value, setValue] = useState(url ?? "");
  const [typed, setTyped] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const save = useSetWebhookUrl(owner, namespace);
  const id = useId();
  useEffect(() => setValue(url ?? ""), [url]);
  const changed = value.trim() !== (url ?? "");
  const secret = url !== null && (format !== "standard" || isChatWebhookUrl(url));
  const problem = typed ?? (save.isError ? urlProblemOf(save.error) : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = value.trim();
    const wrong = next === "" ? null : checkTypedUrl(next);
    setTyped(wrong);
    if (wrong) return;
    onAct();
    save.mutate(next === "" ? null : next, { onSuccess: () => setEditing(false) });
  }

  function cancel() {
    setEditing(false);
    setValue(url ?? "");
    setTyped(null);
    save.reset();
  }

  return (
    <div className="space-y-2">
      {secret && !editing ? (
        <>
          <p className="text-sm font-medium text-zinc-800">Endpoint URL</p>
          <MaskedValue value={url} masked={maskUrl(url)} label="URL" testId="webhook-url">
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              Change
            </Button>
          </MaskedValue>
          <p className="text-xs text-zinc-500">
            A chat webhook URL is itself a secret: anyone who has it can post to your channel.
          </p>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-2">
          <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
            Endpoint URL
          </label>
          <div className="flex flex-wrap gap-2 sm:flex-nowrap">
            <input
              id={id}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/webhooks/feedback"
              value={value}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
              onChange={(e) => {
                setValue(e.target.value);
                setTyped(null);
                if (save.isError) save.reset();
              }}
              className="h-10 min-w-0 flex-1 basis-full rounded-lg border border-zinc-300 px-3 font-mono text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none aria-invalid:border-red-500 sm:basis-auto"
            />
            <Button type="submit" variant="primary" busy={save.isPending} disabled={!changed}>
              Save
            </Button>
            {editing ? (
              <Button variant="secondary" onClick={cancel}>
                Cancel
              </Button>
            ) : null}
          </div>
          {problem ? (
            <p id={`${id}-problem`} role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          ) : (
            <p id={`${id}-hint`} className="text-xs text-zinc-500">
              Public http(s) endpoints only. Leave empty to stop sending events.
            </p>
          )}
          {save.isError && !problem ? <Notice tone="error">{explainError(save.error, "save")}</Notice> : null}
        </form>
      )}
      {save.isSuccess && !changed && !typed && latest ? (
        <Notice tone="success">
          {url ? "Saved. Send a test event below to check that it arrives." : "Removed: no events are sent."}
        </Notice>
      ) : null}
    </div>
  );
}
