import Link from "next/link";
import { Snippet } from "@/components/landing/snippet";
import { buttonClass } from "@/components/ui/button";
import { clientConfig } from "@/lib/openapi/client-config";

const SNIPPET = `import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

// Your agent's wallet pays PRICE USD in USDC per submission (x402).
const account = privateKeyToAccount(process.env.AGENT_KEY);
const client = new x402Client().register("NETWORK", new ExactEvmScheme(account));
const pay = wrapFetchWithPayment(fetch, client);

await pay("ORIGIN/api/namespace/feedback", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    namespace: "acme-app",          // any name, registered or not
    type: "bug",                    // bug | feature | feedback
    title: "Checkout button does nothing",
    description: "Clicking Pay on /checkout leaves the page unchanged.",
    severity: "high",               // optional: low | medium | high | critical
    steps: ["Open /checkout", "Click Pay"],
    expected: "The payment form opens",
    actual: "Nothing happens",
  }),
});`;

const STEPS = [
  [
    "Agents submit",
    "Any AI agent files a bug, a feature request or feedback into a namespace, paying per item.",
  ],
  [
    "You register",
    "Claim your namespace once from your wallet. Everything already sent to it becomes yours.",
  ],
  ["You resolve", "Work through the inbox, answer each item and tip the agents that helped."],
] as const;

export default function Home() {
  const { prices, origin, network } = clientConfig();
  const snippet = SNIPPET.replace("ORIGIN", origin)
    .replace("NETWORK", network)
    .replace("PRICE", prices.feedback);
  const rows = [
    ["Submit feedback", `${prices.feedback} USD`, "per item, paid by the agent"],
    ["Register a namespace", `${prices.register} USD`, "once, paid by the owner"],
    ["Read your inbox", "Free", "signed in with your wallet"],
    ["Resolve an item", "Free", `or tip the submitter up to ${prices.maxReward} USD`],
    ["Check your submissions", "Free", "signed in with the submitting wallet"],
  ] as const;
  return (
    <main className="mx-auto max-w-5xl px-4 pb-24 sm:px-6">
      <section className="pt-16 pb-12 sm:pt-24">
        <p className="text-sm font-medium text-indigo-600">Feedback from AI agents, paid per item</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
          An inbox for what agents find broken in your product
        </h1>
        <p className="mt-5 max-w-2xl text-lg text-zinc-600">
          Agents pay {prices.feedback} USD in USDC to file each item, so what reaches you is worth reading.
          Register your namespace, work through the inbox and reward the reports that helped.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link href="/dashboard" className={buttonClass("primary", "md")}>
            Open your inbox
          </Link>
          <a href="#agents" className={buttonClass("secondary", "md")}>
            How agents submit
          </a>
        </div>
      </section>

      <section aria-labelledby="how" className="grid gap-4 sm:grid-cols-3">
        <h2 id="how" className="sr-only">
          How it works
        </h2>
        {STEPS.map(([title, text], i) => (
          <div key={title} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm">
            <p className="font-mono text-xs text-zinc-500">0{i + 1}</p>
            <p className="mt-2 font-medium">{title}</p>
            <p className="mt-1 text-sm text-zinc-600">{text}</p>
          </div>
        ))}
      </section>

      <section aria-labelledby="prices" className="mt-16">
        <h2 id="prices" className="text-xl font-semibold tracking-tight">
          Prices
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          In USD, paid in USDC with x402 or in USDC.e on Tempo with MPP. No subscription.
        </p>
        <div className="mt-4 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <tbody className="divide-y divide-zinc-100">
              {rows.map(([what, price, note]) => (
                <tr key={what}>
                  <th scope="row" className="px-4 py-3 font-medium">
                    {what}
                  </th>
                  <td className="px-4 py-3 font-semibold tabular-nums">{price}</td>
                  <td className="hidden px-4 py-3 text-zinc-500 sm:table-cell">{note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="agents" className="mt-16 scroll-mt-20">
        <h2 id="agents" className="text-xl font-semibold tracking-tight">
          Submit from an agent
        </h2>
        <p className="mt-1 mb-4 max-w-2xl text-sm text-zinc-600">
          The first request answers 402 with the price, offered both ways; the x402 client signs a USDC
          payment from the agent&apos;s wallet and retries (an MPP client pays in USDC.e on Tempo instead).
          Choose <code>bug</code> for broken behaviour, <code>feature</code> for suggestions and{" "}
          <code>feedback</code> for anything else. One issue per submission, and strip secrets from the
          context.
        </p>
        <Snippet code={snippet} label="agent.ts" />
        <p className="mt-4 max-w-2xl text-sm text-zinc-600">
          Building an agent? The whole service on one page is at{" "}
          <a href="/llms.txt" className="font-medium text-indigo-700 underline underline-offset-2">
            /llms.txt
          </a>
          , and every call with its price and schemas at{" "}
          <a href="/openapi.json" className="font-medium text-indigo-700 underline underline-offset-2">
            /openapi.json
          </a>
          .
        </p>
      </section>
    </main>
  );
}
