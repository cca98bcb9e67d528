import type { HistogramSeries, Labels, MetricFamily, Sample } from "./prometheus";

/** Latency buckets in seconds: a paid call's phases run from about a millisecond to a chain's timeout. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

type Series<T> = Map<string, { labels: Labels; value: T }>;

/** A counter: only goes up, per set of label values. */
export class Counter<L extends string> {
  private readonly series: Series<number> = new Map();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Record<L, string>, by = 1): void {
    const key = JSON.stringify(labels);
    const entry = this.series.get(key) ?? this.series.set(key, { labels, value: 0 }).get(key)!;
    entry.value += by;
  }

  family(): MetricFamily {
    const samples: Sample[] = [...this.series.values()].map(({ labels, value }) => ({ labels, value }));
    return { name: this.name, help: this.help, type: "counter", samples };
  }
}

/** A histogram with fixed buckets, per set of label values. */
export class Histogram<L extends string> {
  private readonly series: Series<{ counts: number[]; sum: number; count: number }> = new Map();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[] = LATENCY_BUCKETS,
  ) {}

  observe(labels: Record<L, string>, value: number): void {
    const key = JSON.stringify(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, value: { counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 } };
      this.series.set(key, entry);
    }
    const i = this.buckets.findIndex((le) => value <= le);
    if (i >= 0) entry.value.counts[i]! += 1;
    entry.value.sum += value;
    entry.value.count += 1;
  }

  family(): MetricFamily {
    const series: HistogramSeries[] = [...this.series.values()].map(({ labels, value }) => ({
      labels,
      ...value,
    }));
    return { name: this.name, help: this.help, type: "histogram", buckets: this.buckets, series };
  }
}

type Registry = { metrics: Map<string, Counter<string> | Histogram<string>>; routes: Set<string> };

// Next.js bundles each route on its own, so a module-level registry would be one per route bundle:
// the registry lives on globalThis, one per process, whichever bundle records or scrapes.
const store = globalThis as unknown as { __feedbackMetrics?: Registry };
store.__feedbackMetrics ??= { metrics: new Map(), routes: new Set() };
const registry = store.__feedbackMetrics;

function registered<M extends Counter<string> | Histogram<string>>(name: string, create: () => M): M {
  const found = registry.metrics.get(name);
  if (found) return found as M;
  const metric = create();
  registry.metrics.set(name, metric);
  return metric;
}

/** The process's counter of this name, created on first use. */
export function counter<L extends string>(name: string, help: string): Counter<L> {
  return registered(name, () => new Counter<L>(name, help)) as Counter<L>;
}

/** The process's histogram of this name, created on first use. */
export function histogram<L extends string>(name: string, help: string, buckets?: number[]): Histogram<L> {
  return registered(name, () => new Histogram<L>(name, help, buckets)) as Histogram<L>;
}

/** Every counter and histogram recorded in this process, sorted by name. */
export function registeredFamilies(): MetricFamily[] {
  return [...registry.metrics.values()].map((m) => m.family()).sort((a, b) => a.name.localeCompare(b.name));
}

const MAX_ROUTES = 100;

/**
 * The route label of a path: the path itself (every route here is static), up to MAX_ROUTES distinct
 * ones; past that "other", so a route with dynamic segments added later cannot grow series unbounded.
 */
export function routeLabel(pathname: string): string {
  if (registry.routes.has(pathname)) return pathname;
  if (registry.routes.size >= MAX_ROUTES) return "other";
  registry.routes.add(pathname);
  return pathname;
}
