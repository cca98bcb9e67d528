/**
 * The Prometheus text exposition format (version 0.0.4), written by hand: a few dozen lines cost less
 * than a client library, and the registry must live on globalThis anyway (lib/http/metrics.ts).
 */

export type Labels = Readonly<Record<string, string>>;

/** One value of a counter or a gauge. */
export type Sample = { labels?: Labels; value: number };

/** One labelled histogram: observations per bucket (not cumulative; the last is +Inf), sum and count. */
export type HistogramSeries = { labels?: Labels; counts: readonly number[]; sum: number; count: number };

export type MetricFamily =
  | { name: string; help: string; type: "counter" | "gauge"; samples: readonly Sample[] }
  | {
      name: string;
      help: string;
      type: "histogram";
      /** Upper bounds, ascending, without +Inf. */
      buckets: readonly number[];
      series: readonly HistogramSeries[];
    };

/** A family of one unlabelled sample: a figure read at scrape time. */
export const oneSample = (
  name: string,
  help: string,
  value: number,
  type: "counter" | "gauge" = "gauge",
): MetricFamily => ({ name, help, type, samples: [{ value }] });

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** A label value as the format quotes it: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text escapes backslash and line feed only. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** A sample value: integers as integers, the infinities and NaN as the format spells them. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

function labelText(labels: Labels | undefined, extra?: [string, string]): string {
  const pairs = Object.entries(labels ?? {});
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return "";
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(",")}}`;
}

function histogramLines(name: string, buckets: readonly number[], series: HistogramSeries): string[] {
  const lines: string[] = [];
  let cumulative = 0;
  buckets.forEach((le, i) => {
    cumulative += series.counts[i] ?? 0;
    lines.push(`${name}_bucket${labelText(series.labels, ["le", formatValue(le)])} ${cumulative}`);
  });
  lines.push(`${name}_bucket${labelText(series.labels, ["le", "+Inf"])} ${series.count}`);
  lines.push(`${name}_sum${labelText(series.labels)} ${formatValue(series.sum)}`);
  lines.push(`${name}_count${labelText(series.labels)} ${series.count}`);
  return lines;
}

/** Renders metric families as one exposition document, each with its HELP and TYPE lines. */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    if (family.type === "histogram") {
      for (const series of family.series) lines.push(...histogramLines(family.name, family.buckets, series));
    } else {
      for (const s of family.samples)
        lines.push(`${family.name}${labelText(s.labels)} ${formatValue(s.value)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
