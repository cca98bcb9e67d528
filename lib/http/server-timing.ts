/**
 * The phases of one request, answered as a W3C `Server-Timing` header, so a caller (and `npm run bench`)
 * sees where a call's time went: e.g. `verify;dur=16.2, claim;dur=1.9, settle;dur=30.4, store;dur=2.2,
 * total;dur=51.0` for a paid one, `auth;dur=1.8, db;dur=1.1, total;dur=3.0` for a free read (milliseconds).
 */
export class ServerTiming {
  private readonly started = performance.now();
  private last = this.started;
  private readonly entries: [name: string, ms: number][] = [];

  /** Ends the phase running since the previous mark (or the start) and names it. */
  mark(name: string): void {
    const now = performance.now();
    this.entries.push([name, now - this.last]);
    this.last = now;
  }

  /** Whether a phase of this name has ended. */
  has(name: string): boolean {
    return this.entries.some(([phase]) => phase === name);
  }

  /** The header value: every phase, then the total since the start. */
  header(): string {
    return this.phases()
      .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
      .join(", ");
  }

  /** Every phase ended so far and the total, in milliseconds: what the header says, for metrics. */
  phases(): [name: string, ms: number][] {
    return [...this.entries, ["total", performance.now() - this.started]];
  }
}

/** Parses a `Server-Timing` value into milliseconds per metric (metrics without `dur` are skipped). */
export function parseServerTiming(value: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of (value ?? "").split(",")) {
    const [name, ...params] = entry.trim().split(";");
    const dur = params.map((p) => p.trim()).find((p) => p.startsWith("dur="));
    const ms = dur ? Number(dur.slice(4)) : Number.NaN;
    if (name && Number.isFinite(ms)) out[name] = ms;
  }
  return out;
}
