import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { useConnection } from "wagmi";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/states";
import { useClientConfig } from "@/lib/api-client/config";
import { explainError } from "@/lib/api-client/explain";
import { registerNamespaceSchema } from "@/lib/api-client/form-schemas";
import { useRegisterNamespace } from "@/lib/api-client/hooks/use-namespaces";
import { usdLabel } from "@/lib/api-client/money";
import { shortAddress } from "../format";
import { ConnectDialog } from "../wallet/connect-dialog";

/** Registers a namespace, paid from the connected wallet through the same 402 flow agents use. */
export function RegisterForm({ owner, initialName = "" }: { owner: string; initialName?: string }) {
  const config = useClientConfig();
  const connection = useConnection();
  const register = useRegisterNamespace(owner);
  const [name, setName] = useState(initialName.toLowerCase().slice(0, 30));
  const [description, setDescription] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [connecting, setConnecting] = useState(false);
  const nameId = useId();
  const descriptionId = useId();
  const price = usdLabel(config.prices.register);
  const payer = connection.status === "connected" ? connection.address : undefined;
  const wrongWallet = payer !== undefined && payer.toLowerCase() !== owner.toLowerCase();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = registerNamespaceSchema.safeParse({
      namespace: name,
      description: description || undefined,
    });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? "Check the name.");
      return;
    }
    setFieldError(null);
    register.mutate(
      { namespace: name, ...(description ? { description } : {}) },
      {
        onSuccess: () => {
          setName("");
          setDescription("");
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" noValidate>
      <h2 id="register-title" className="font-semibold">
        Register a namespace
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        {price}, paid once in USDC. You own the name and every item already sent to it.
      </p>
      <label htmlFor={nameId} className="mt-4 block text-sm font-medium">
        Namespace name
      </label>
      <input
        id={nameId}
        value={name}
        onChange={(e) => setName(e.target.value.toLowerCase())}
        placeholder="acme-app"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={fieldError ? true : undefined}
        aria-describedby={`${nameId}-hint`}
        className="mt-1 h-10 w-full rounded-lg border border-zinc-300 px-3 font-mono text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
      />
      <p id={`${nameId}-hint`} className={`mt-1 text-xs ${fieldError ? "text-red-700" : "text-zinc-500"}`}>
        {fieldError ? `Name ${fieldError}.` : "3–30 lowercase letters, digits and hyphens."}
      </p>
      <label htmlFor={descriptionId} className="mt-3 block text-sm font-medium">
        Description <span className="font-normal text-zinc-500">(optional)</span>
      </label>
      <textarea
        id={descriptionId}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={500}
        rows={2}
        className="mt-1 w-full rounded-lg border border-zinc-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
      />
      <div className="mt-4 rounded-lg bg-zinc-50 p-3 text-sm">
        <div className="flex justify-between">
          <span className="text-zinc-600">Price</span>
          <span className="font-semibold tabular-nums">{price}</span>
        </div>
        <div className="mt-1 flex justify-between">
          <span className="text-zinc-600">Paid from</span>
          <span className="font-mono text-xs leading-5">
            {payer ? shortAddress(payer) : "no wallet connected"}
          </span>
        </div>
      </div>
      {wrongWallet ? (
        <div className="mt-3">
          <Notice tone="error">
            The connected wallet is not the one you signed in with ({shortAddress(owner)}). Sign in with it
            first, or switch back, so the new namespace is yours.
          </Notice>
        </div>
      ) : null}
      <Button
        type="submit"
        className="mt-4 w-full"
        busy={register.isPending}
        disabled={!payer || wrongWallet}
      >
        {register.isPending ? "Confirm the payment in your wallet…" : `Pay ${price} and register`}
      </Button>
      {!payer ? (
        <>
          <Button variant="secondary" className="mt-2 w-full" onClick={() => setConnecting(true)}>
            Connect your wallet to pay
          </Button>
          <ConnectDialog open={connecting} onClose={() => setConnecting(false)} />
        </>
      ) : null}
      <div className="mt-3" aria-live="polite">
        {register.isError ? <Notice tone="error">{explainError(register.error, "pay")}</Notice> : null}
        {register.isSuccess ? (
          <Notice tone="success">
            <p>
              Registered <span className="font-mono font-medium">{register.data.result.namespace}</span> and
              paid {price}. {register.data.result.existingFeedbackLinked} earlier{" "}
              {register.data.result.existingFeedbackLinked === 1 ? "item was" : "items were"} linked.
            </p>
            {register.data.txHash ? (
              <p className="mt-1 break-all font-mono text-xs" data-testid="register-tx">
                Transaction {register.data.txHash}
              </p>
            ) : null}
            <Link
              href={`/dashboard/${encodeURIComponent(register.data.result.namespace)}`}
              className="mt-2 inline-block font-medium underline underline-offset-2"
            >
              Open its inbox
            </Link>
          </Notice>
        ) : null}
      </div>
    </form>
  );
}
