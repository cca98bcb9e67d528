"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/states";
import { explainError } from "@/lib/api-client/explain";
import { useRotateWebhookSecret } from "@/lib/api-client/hooks/use-webhooks";
import { MaskedValue } from "./masked-value";

/** The signing secret: masked until revealed, copyable, and rotated after a confirmation. */
export function WebhookSecret({
  owner,
  namespace,
  secret,
}: {
  owner: string;
  namespace: string;
  secret: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const rotate = useRotateWebhookSecret(owner, namespace);

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-zinc-800">Signing secret</p>
      <MaskedValue value={secret} masked={`whsec_${"•".repeat(24)}`} label="secret" testId="webhook-secret">
        <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
          Rotate
        </Button>
      </MaskedValue>
      <p className="text-xs text-zinc-500">
        Verify each delivery with the <code>standardwebhooks</code> library and this secret.
      </p>
      {rotate.isError ? <Notice tone="error">{explainError(rotate.error, "save")}</Notice> : null}
      <Dialog open={confirming} onClose={() => setConfirming(false)} title="Rotate the signing secret?">
        <p className="text-sm text-zinc-600">
          Every delivery from now on, retries included, is signed with a new secret. Your receiver rejects
          them until it has the new one.
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant="primary"
            busy={rotate.isPending}
            onClick={() => rotate.mutate(undefined, { onSettled: () => setConfirming(false) })}
          >
            Rotate secret
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
