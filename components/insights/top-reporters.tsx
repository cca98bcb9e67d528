import { shortAddress } from "@/components/format";
import type { Insights } from "@/lib/api-client/fetchers/insights";
import { ChartFrame } from "./chart-frame";

/** The wallets that filed the most items in the period, as a ranked table with a bar for each count. */
export function TopReporters({ reporters }: { reporters: Insights["topReporters"] }) {
  const most = reporters[0]?.count ?? 0;
  return (
    <ChartFrame
      title="Top reporters"
      description="The wallets that filed the most items in the period."
      testId="top-reporters"
    >
      {reporters.length === 0 ? (
        <p className="text-sm text-zinc-500">No items from a known wallet in this period.</p>
      ) : (
        <table className="w-full text-left text-sm tabular-nums">
          <caption className="sr-only">Top reporters in the period, most items first</caption>
          <thead className="text-xs text-zinc-500">
            <tr>
              <th scope="col" className="w-8 py-1.5 font-medium">
                #
              </th>
              <th scope="col" className="py-1.5 font-medium">
                Wallet
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                Items
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {reporters.map((r, i) => (
              <tr key={r.wallet}>
                <td className="py-1.5 text-zinc-500">{i + 1}</td>
                <th scope="row" className="py-1.5 font-normal">
                  <span className="font-mono text-xs" title={r.wallet}>
                    {shortAddress(r.wallet)}
                  </span>
                  <span
                    aria-hidden="true"
                    className="mt-1 block h-1.5 rounded-full bg-indigo-500/70"
                    style={{ width: `${Math.max(4, (r.count / most) * 100)}%` }}
                  />
                </th>
                <td className="py-1.5 pl-3 text-right align-top">{r.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ChartFrame>
  );
}
