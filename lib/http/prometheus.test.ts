import { describe, expect, it } from "vitest";
import { escapeLabelValue, formatValue, renderExposition } from "./prometheus";

describe("Prometheus exposition", () => {
  it("escapes backslash, double quote and line feed in label values, and only those", () => {
    expect(escapeLabelValue('a\\b"c\nd\te')).toBe('a\\\\b\\"c\\nd\te');
    const text = renderExposition([
      {
        name: "t_total",
        help: "Line one\nline two \\ end",
        type: "counter",
        samples: [{ labels: { route: '/x"\n' }, value: 3 }],
      },
    ]);
    expect(text).toBe(
      '# HELP t_total Line one\\nline two \\\\ end\n# TYPE t_total counter\nt_total{route="/x\\"\\n"} 3\n',
    );
  });

  it("writes a sample without labels bare, and the special values as the format spells them", () => {
    const text = renderExposition([{ name: "g", help: "h", type: "gauge", samples: [{ value: 0.25 }] }]);
    expect(text.split("\n")).toContain("g 0.25");
    expect([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 7].map(formatValue)).toEqual([
      "+Inf",
      "-Inf",
      "NaN",
      "7",
    ]);
  });

  it("renders a histogram with cumulative buckets, +Inf, sum and count, the labels before le", () => {
    const text = renderExposition([
      {
        name: "d_seconds",
        help: "Durations.",
        type: "histogram",
        buckets: [0.1, 1],
        // 2 observations ≤ 0.1, 1 in (0.1, 1], 1 above 1.
        series: [{ labels: { phase: "settle" }, counts: [2, 1], sum: 3.35, count: 4 }],
      },
    ]);
    expect(text.trim().split("\n")).toEqual([
      "# HELP d_seconds Durations.",
      "# TYPE d_seconds histogram",
      'd_seconds_bucket{phase="settle",le="0.1"} 2',
      'd_seconds_bucket{phase="settle",le="1"} 3',
      'd_seconds_bucket{phase="settle",le="+Inf"} 4',
      'd_seconds_sum{phase="settle"} 3.35',
      'd_seconds_count{phase="settle"} 4',
    ]);
  });
});
