"use client";

import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import { useSetWebhookUrl } from "@/lib/api-client/hooks/use-webhooks";

/** The webhook URL, editable; an empty field removes it. */
export function WebhookUrlForm({
  owner,
  namespace,
  url,
}: {
  owner: string;
  namespace: string;
  url: string | null;
}) {
  const [value, setValue] = useState(url ?? "");
  const save = useSetWebhookUrl(owner, namespace);
  const id = useId();
  useEffect(() => setValue(url ?? ""), [url]);
  const changed = value.trim() !== (url ?? "");

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(value.trim() === "" ? null : value.trim());
  }

  return (
    <form onSubmit={submit} className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        Endpoint URL
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/feedback"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="h-10 min-w-0 flex-1 rounded-lg border border-zinc-300 px-3 font-mono text-sm focus:border-indigo-500 focus:outline-none"
        />
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!changed}>
          Save
        </Button>
      </div>
      <p className="text-xs text-zinc-500">
        Public http(s) endpoints only. Leave empty to stop sending events.
      </p>
      {save.isError ? <Notice tone="error">{explainError(save.error, "save")}</Notice> : null}
      {save.isSuccess && !changed ? <Notice tone="success">Saved.</Notice> : null}
    </form>
  );
}
