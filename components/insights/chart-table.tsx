import type { ReactNode } from "react";

type Column<Row> = { label: string; value: (row: Row) => ReactNode };

/**
 * A chart's numbers as a table, folded under "Show as table": the same figures for screen readers,
 * for copying, and for reading exactly. Long periods scroll inside the fold, never the page.
 */
export function ChartTable<Row>({
  caption,
  rows,
  rowHeader,
  columns,
  testId,
}: {
  caption: string;
  rows: Row[];
  rowHeader: { label: string; value: (row: Row) => string };
  columns: Column<Row>[];
  testId: string;
}) {
  return (
    <details className="group mt-3 text-sm">
      <summary className="cursor-pointer text-indigo-700 select-none hover:underline">Show as table</summary>
      <div className="mt-2 max-h-80 overflow-auto rounded-lg border border-zinc-200">
        <table className="w-full text-left tabular-nums" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-500">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                {rowHeader.label}
              </th>
              {columns.map((c) => (
                <th key={c.label} scope="col" className="px-3 py-2 text-right font-medium">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {rows.map((row) => {
              const name = rowHeader.value(row);
              return (
                <tr key={name}>
                  <th scope="row" className="px-3 py-1.5 font-normal whitespace-nowrap text-zinc-700">
                    {name}
                  </th>
                  {columns.map((c) => (
                    <td key={c.label} className="px-3 py-1.5 text-right">
                      {c.value(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </details>
  );
}
