/** Load generation: percentiles, a closed and an open loop, and the load generator's HTTP client. */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { gunzipSync, inflateSync } from "node:zlib";

export const now = () => performance.now();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export type Failed = { error: string };
export type Summary = { n: number; mean: number; p50: number; p95: number; p99: number; max: number };
type Counts = { concurrency: number; requests: number; ok: number; errors: number; errorSamples: string[] };
export type LoadResult = Counts & { wallMs: number; rps: number; latency: Summary };

/** Percentiles (nearest rank) in milliseconds, rounded to 0.01 ms. */
export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x?: number) => (x === undefined ? Number.NaN : Math.round(x * 100) / 100);
  const at = (q: number) => r(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]);
  const mean = r(s.length ? s.reduce((a, b) => a + b, 0) / s.length : undefined);
  return { n: s.length, mean, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: r(s.at(-1)) };
}

/** The median repeat's rate (a repeat the chain stalled in moves only the pooled rate), or the pooled rate. */
export const medianRps = (l?: { rps: number; repeats?: Array<{ rps: number }> }) =>
  l?.repeats?.length ? summarize(l.repeats.map((r) => r.rps)).p50 : l?.rps;

/** `n` calls of `fn` one after another: each one's latency, and the rate over the whole pass. */
export async function timed(n: number, fn: (i: number) => Promise<unknown>) {
  const [latencies, start] = [[] as number[], now()];
  for (let i = 0; i < n; i++) {
    const t = now();
    await fn(i);
    latencies.push(now() - t);
  }
  return { perSecond: Math.round((n / ((now() - start) / 1000)) * 10) / 10, latency: summarize(latencies) };
}

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs `fn`; a failure is logged and kept as `{ error }`, so one section's failure spares the rest. */
export async function attempt<T>(name: string, fn: () => Promise<T>): Promise<T | Failed> {
  try {
    return await fn();
  } catch (error) {
    console.error(`  ✖ ${name} failed: ${message(error)}`);
    return { error: message(error) };
  }
}

/** Each task's outcome: an error string, or null and its latency. */
function tally(concurrency: number, requests: number) {
  const [latencies, start] = [[] as number[], now()];
  const c: Counts = { concurrency, requests, ok: 0, errors: 0, errorSamples: [] };
  const add = (failure: string | null, ms: number) => {
    if (failure === null) c.ok = latencies.push(ms);
    else if (c.errors++ < 5) c.errorSamples.push(failure.slice(0, 300));
  };
  const result = (wallMs = now() - start): LoadResult => {
    const rps = Math.round((c.ok / (wallMs / 1000)) * 100) / 100;
    return { ...c, wallMs: Math.round(wallMs), rps, latency: summarize(latencies) };
  };
  return { add, result };
}

type Task = (i: number, startClock: () => void) => Promise<string | null>;
/** `count` tasks (or until `until()`), `concurrency` at once, each timed from its start or `startClock()`. */
export async function closedLoop(count: number, concurrency: number, task: Task, until = () => false) {
  const t = tally(concurrency, count);
  let next = 0;
  const worker = async () => {
    while (next < count && !until()) {
      let t0 = now();
      const startClock = () => {
        t0 = now();
      };
      t.add(await task(next++, startClock).catch(message), now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return t.result();
}

/** `count` tasks started at a fixed rate whatever is in flight, each timed from when it was due. */
export async function openLoop(count: number, rate: number, task: (i: number) => Promise<string | null>) {
  const [t, start, runs] = [tally(0, count), now(), [] as Promise<void>[]];
  let [inFlight, maxInFlight] = [0, 0];
  for (let i = 0; i < count; i++) {
    const due = start + i * (1000 / rate);
    if (due > now()) await sleep(due - now());
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    const done = (failure: string | null) => {
      inFlight--;
      t.add(failure, now() - due);
    };
    runs.push(task(i).catch(message).then(done));
  }
  await Promise.all(runs);
  return { ...t.result(), concurrency: maxInFlight, ratePerSecond: rate, maxInFlight };
}

/**
 * Kept-alive sockets for one level's calls; `destroy()` it when the level ends. A socket idle for 4 s is
 * closed here first: Node's server closes one idle for 5 s, and a request sent on a socket just as the
 * server closes it fails with ECONNRESET without reaching it (a reset the load generator causes, not the
 * server under test).
 */
export const keepAliveAgent = () => new Agent({ keepAlive: true, timeout: 4_000 });

/** The load generator's client: gzip as fetch asks, for a fraction of fetch's CPU (the server's, on 2 cores). */
export function send(agent: Agent, url: string, headers: Record<string, string>, body?: string) {
  const length = body === undefined ? {} : { "content-length": `${Buffer.byteLength(body)}` };
  const json = body === undefined ? {} : { "content-type": "application/json", ...length };
  const options = {
    method: body === undefined ? "GET" : "POST",
    agent,
    headers: { "accept-encoding": "gzip, deflate", ...json, ...headers },
  };
  return new Promise<{ status: number; text: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = httpRequest(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk)).on("error", reject);
      res.on("end", () => {
        try {
          const [raw, encoding] = [Buffer.concat(chunks), res.headers["content-encoding"]];
          const inflate =
            encoding === "gzip" ? gunzipSync : encoding === "deflate" ? inflateSync : (b: Buffer) => b;
          resolve({ status: res.statusCode ?? 0, text: inflate(raw).toString(), headers: res.headers });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on("error", reject).end(body);
  });
}
