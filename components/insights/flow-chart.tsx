"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Insights } from "@/lib/api-client/fetchers/insights";
import { AXIS, ChartFrame, COLORS } from "./chart-frame";
import { ChartTable } from "./chart-table";
import { bucketName, shortDay } from "./format";

/** Items filed against items resolved per bucket: whether the inbox keeps up. */
export function FlowChart({ insights }: { insights: Insights }) {
  const { buckets, bucket } = insights;
  return (
    <ChartFrame
      title="Filed and resolved"
      description={`Items filed and items resolved per ${bucket}.`}
      testId="chart-created-resolved"
    >
      <div
        role="img"
        aria-label={`Line chart of the items filed and resolved per ${bucket}; the numbers are in the table below.`}
      >
        <ResponsiveContainer width="100%" height={240} initialDimension={{ width: 300, height: 240 }}>
          <LineChart
            data={buckets}
            margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} stroke="#e4e4e7" />
            <XAxis dataKey="start" tickFormatter={shortDay} tick={AXIS} minTickGap={24} tickLine={false} />
            <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} width={44} />
            <Tooltip labelFormatter={(day) => bucketName(String(day), bucket)} />
            <Legend iconType="plainline" iconSize={14} wrapperStyle={{ fontSize: 12 }} />
            <Line
              dataKey="created"
              name="Filed"
              stroke={COLORS.created}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
            <Line
              dataKey="resolved"
              name="Resolved"
              stroke={COLORS.resolved}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ChartTable
        caption={`Items filed and resolved per ${bucket}`}
        testId="table-created-resolved"
        rows={buckets}
        rowHeader={{ label: bucket === "week" ? "Week" : "Day", value: (b) => bucketName(b.start, bucket) }}
        columns={[
          { label: "Filed", value: (b) => b.created },
          { label: "Resolved", value: (b) => b.resolved },
        ]}
      />
    </ChartFrame>
  );
}
