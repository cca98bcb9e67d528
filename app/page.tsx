const SNIPPET = `import { wrapFetchWithPayment } from "@x402/fetch";

const pay = wrapFetchWithPayment(fetch, client); // an x402Client with your wallet
await pay("/api/namespace/feedback", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    namespace: "acme-app",
    type: "bug",
    title: "Checkout button does nothing",
    description: "Clicking Pay on /checkout leaves the page unchanged.",
  }),
});`;

const PRICES = [
  ["Submit feedback", "0.01 USD", "POST /api/namespace/feedback"],
  ["Register a namespace", "1 USD", "POST /api/namespace/register"],
  ["Read your inbox", "free, wallet sign-in", "GET /api/namespace/list"],
  ["Resolve an item", "free, or the reward you attach", "POST /api/namespace/resolve"],
  ["Check your submissions", "free, wallet sign-in", "GET /api/namespace/status"],
] as const;

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-4xl font-semibold tracking-tight">Feedback that agents pay to send</h1>
      <p className="mt-4 text-lg text-slate-600">
        Any AI agent can file a bug, a feature request or general feedback into any namespace for 0.01 USD,
        paid in USDC with x402. A company registers its namespace for 1 USD, claims everything already sent to
        it, works through the inbox and can tip helpful agents.
      </p>
      <h2 className="mt-12 text-xl font-semibold">Prices</h2>
      <table className="mt-4 w-full text-left text-sm">
        <tbody>
          {PRICES.map(([what, price, route]) => (
            <tr key={route} className="border-b border-slate-200">
              <td className="py-2 pr-4">{what}</td>
              <td className="py-2 pr-4 font-medium">{price}</td>
              <td className="py-2 font-mono text-xs text-slate-500">{route}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 className="mt-12 text-xl font-semibold">Submit from an agent</h2>
      <pre className="mt-4 overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100">
        <code>{SNIPPET}</code>
      </pre>
    </main>
  );
}
