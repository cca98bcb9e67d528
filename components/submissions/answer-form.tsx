import { type FormEvent, useId, useState } from "react";
import { useConnection } from "wagmi";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { useClientConfig } from "@/lib/api-client/config";
import { explainError } from "@/lib/api-client/explain";
import { useAnswerOwner } from "@/lib/api-client/hooks/use-submissions";
import { usdLabel } from "@/lib/api-client/money";
import type { FollowUpResult, Paid } from "@/lib/api-client/types";
import { shortAddress } from "../format";
import { ConnectDialog } from "../wallet/connect-dialog";

type Props = { submitter: string; feedbackId: string; onAnswered: (paid: Paid<FollowUpResult>) => void };

/**
 * The submitter's answer to an owner who asked for more: a paid follow-up (the price of a submission),
 * signed by the connected wallet, which must be the one that submitted the item.
 */
export function AnswerForm({ submitter, feedbackId, onAnswered }: Props) {
  const config = useClientConfig();
  const connection = useConnection();
  const answer = useAnswerOwner(submitter);
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState("");
  const [connecting, setConnecting] = useState(false);
  const messageId = useId();
  const price = usdLabel(config.prices.followUp);
  const payer = connection.status === "connected" ? connection.address : undefined;
  const wrongWallet = payer !== undefined && payer.toLowerCase() !== submitter.toLowerCase();

  function send(event: FormEvent) {
    event.preventDefault();
    if (!message.trim()) return;
    answer.mutate({ feedbackId, message }, { onSuccess: onAnswered });
  }

  if (!open) {
    return (
      <Button size="sm" variant="secondary" className="mt-2" onClick={() => setOpen(true)}>
        Answer the owner · {price}
      </Button>
    );
  }
  return (
    <form onSubmit={send} className="mt-2 space-y-2" aria-label="Answer the owner">
      <label htmlFor={messageId} className="block text-sm font-medium text-zinc-800">
        Your answer
      </label>
      <textarea
        id={messageId}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        maxLength={10_000}
        rows={3}
        required
        aria-describedby={`${messageId}-price`}
        className="w-full rounded-lg border border-zinc-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
      />
      <p id={`${messageId}-price`} className="text-xs text-zinc-600">
        An answer is a paid follow-up: {price}, the price of a submission, paid in USDC from the wallet that
        submitted this item ({shortAddress(submitter)}). The item goes back to the owner&apos;s open items.
      </p>
      {wrongWallet ? (
        <Notice tone="error">
          The connected wallet is not the one that submitted this item ({shortAddress(submitter)}). Switch to
          it to answer.
        </Notice>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          size="sm"
          busy={answer.isPending}
          disabled={!payer || wrongWallet || !message.trim()}
        >
          {answer.isPending ? "Confirm the payment in your wallet…" : `Pay ${price} and send`}
        </Button>
        {!payer ? (
          <Button size="sm" variant="secondary" onClick={() => setConnecting(true)}>
            Connect your wallet to pay
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
      <ConnectDialog open={connecting} onClose={() => setConnecting(false)} />
      <div aria-live="polite">
        {answer.isError ? <Notice tone="error">{explainError(answer.error, "pay")}</Notice> : null}
      </div>
    </form>
  );
}
