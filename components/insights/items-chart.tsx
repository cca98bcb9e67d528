"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Insights } from "@/lib/api-client/fetchers/insights";
import { AXIS, ChartFrame, COLORS } from "./chart-frame";
import { ChartTable } from "./chart-table";
import { bucketName, shortDay } from "./format";

const SERIES = [
  { key: "bug", name: "Bugs" },
  { key: "feature", name: "Features" },
  { key: "feedback", name: "Feedback" },
] as const;

/** Items filed per bucket, stacked by type, with the same numbers as a table. */
export function ItemsChart({ insights }: { insights: Insights }) {
  const { buckets, bucket } = insights;
  return (
    <ChartFrame
      title="Items over time by type"
      description={`Items filed per ${bucket}, stacked by type.`}
      testId="chart-items-by-type"
    >
      <div
        role="img"
        aria-label={`Bar chart of the items filed per ${bucket}, stacked by type; the numbers are in the table below.`}
      >
        <ResponsiveContainer width="100%" height={240} initialDimension={{ width: 300, height: 240 }}>
          <BarChart
            data={buckets}
            margin={{ top: 4, right: 4, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} stroke="#e4e4e7" />
            <XAxis dataKey="start" tickFormatter={shortDay} tick={AXIS} minTickGap={24} tickLine={false} />
            <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} width={44} />
            <Tooltip labelFormatter={(day) => bucketName(String(day), bucket)} cursor={{ fill: "#f4f4f5" }} />
            <Legend iconType="square" iconSize={10} wrapperStyle={{ fontSize: 12 }} />
            {SERIES.map((s) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.name}
                stackId="type"
                fill={COLORS[s.key]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ChartTable
        caption={`Items filed per ${bucket} by type`}
        testId="table-items-by-type"
        rows={buckets}
        rowHeader={{ label: bucket === "week" ? "Week" : "Day", value: (b) => bucketName(b.start, bucket) }}
        columns={[
          ...SERIES.map((s) => ({ label: s.name, value: (b: Insights["buckets"][number]) => b[s.key] })),
          { label: "All", value: (b) => b.created },
        ]}
      />
    </ChartFrame>
  );
}
