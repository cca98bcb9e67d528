import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import { useSetCallback } from "@/lib/api-client/hooks/use-submissions";
import { ApiError } from "@/lib/api-client/http";
import type { Submission } from "@/lib/api-client/types";

type Props = { submitter: string; item: Submission };

/**
 * Where events about the report go: shown to its reporter alone (this page is its own), set, replaced or
 * removed here with the checks and words of the API (PATCH /api/namespace/feedback/callback). A new URL comes
 * with a new signing secret, shown once, right here.
 */
export function CallbackForm({ submitter, item }: Props) {
  const save = useSetCallback(submitter);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const urlId = useId();
  // Focus follows the step: into the URL field, onto the confirmation, and back to the actions after either.
  const area = useRef<HTMLElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    const here = area.current;
    if (!here) return;
    if (editing) here.querySelector<HTMLInputElement>("input")?.focus();
    else if (removing) here.querySelector<HTMLButtonElement>("[data-confirm]")?.focus();
    else if (moved.current) here.querySelector<HTMLButtonElement>("[data-actions] button")?.focus();
    moved.current = editing || removing;
  }, [editing, removing]);
  const errorId = useId();
  const current = item.callbackUrl;
  // The service's own words: its message about callbackUrl (as the API names the field), else its detail.
  const field =
    save.error instanceof ApiError ? save.error.fields.find((f) => f.field === "callbackUrl") : undefined;
  const problem = field
    ? `The callback URL ${field.message.replace(/\.$/, "")}.`
    : save.error
      ? explainError(save.error, "save")
      : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { id: item.id, callbackUrl: url.trim() },
      {
        onSuccess: (result) => {
          setSecret(result.callbackSecret ?? null);
          setEditing(false);
          setUrl("");
        },
      },
    );
  }

  return (
    <section ref={area} aria-label="Callback" className="mt-3 rounded-lg bg-zinc-50 px-3 py-2 text-sm">
      <p className="text-zinc-700">
        {current ? (
          <>
            Events about this report are sent to{" "}
            <span className="font-mono break-all text-zinc-900" data-testid="callback-url">
              {current}
            </span>
            <span className="block text-xs text-zinc-600">Only you see this address.</span>
          </>
        ) : (
          "No callback: nothing is sent to you when this report changes."
        )}
      </p>
      {secret ? (
        <div className="mt-2">
          <Notice tone="success">
            Callback set. Its signing secret, shown only now (keep it to verify each event):
            <span className="mt-1 flex flex-wrap items-center gap-1 font-mono text-xs break-all">
              <span data-testid="callback-secret">{secret}</span>
              <CopyButton text={secret} label="Copy the secret" />
            </span>
          </Notice>
        </div>
      ) : null}
      {editing ? (
        <form onSubmit={submit} noValidate className="mt-2 space-y-2" aria-label="Set the callback">
          <label htmlFor={urlId} className="block text-xs font-medium text-zinc-800">
            {current
              ? "New callback URL (a new secret comes with it; the old one stops signing)"
              : "Callback URL"}
          </label>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            autoComplete="off"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              save.reset();
            }}
            maxLength={2048}
            required
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            placeholder="https://agent.example/hooks/feedback"
            className="h-9 w-full rounded-lg border border-zinc-300 bg-white px-2 font-mono text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
          />
          {problem ? (
            <p id={errorId} role="alert" className="text-red-700">
              {problem}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" busy={save.isPending} disabled={!url.trim()}>
              Save the callback
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                setEditing(false);
                save.reset();
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : removing ? (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <span className="text-zinc-800">Stop sending events about this report?</span>
          <Button
            size="sm"
            variant="danger"
            data-confirm=""
            busy={save.isPending}
            onClick={() =>
              save.mutate(
                { id: item.id, callbackUrl: null },
                {
                  onSuccess: () => {
                    setRemoving(false);
                    setSecret(null);
                  },
                },
              )
            }
          >
            Remove the callback
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRemoving(false)}>
            Keep it
          </Button>
          {problem ? (
            <p role="alert" className="basis-full text-red-700">
              {problem}
            </p>
          ) : null}
        </div>
      ) : (
        <div data-actions="" className="mt-2 flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              save.reset();
              setEditing(true);
            }}
          >
            {current ? "Replace the callback" : "Set a callback"}
          </Button>
          {current ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                save.reset();
                setRemoving(true);
              }}
            >
              Remove
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}
