/** The soak section: paid x402 calls at concurrency 32, the server's RSS and own memoryUsage() every 5 s. */
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { closedLoop, now, sleep } from "./load";
import { nextServerPid, rssKiB } from "./machine";
import { ask402, feedbackBody, x402Payers } from "./paid";
import type { NextApp } from "./servers";

type Memory = { t: number } & Record<"rss" | "heapUsed" | "heapTotal" | "external", number>;
const METRICS = {
  rss: "process_resident_memory_bytes",
  heapUsed: "nodejs_heap_size_used_bytes",
  heapTotal: "nodejs_heap_size_total_bytes",
  external: "nodejs_external_memory_bytes",
};

/** From the soak's first fifth on: the spread (largest less smallest, over the smallest) and drift, in %. */
function flatness(samples: Memory[], seconds: number, key: "rss" | "heapUsed") {
  const after = samples.filter((x) => x.t >= seconds / 5 && Number.isFinite(x[key]));
  const values = after.map((x) => x[key]);
  const [min, pct] = [Math.min(...values), (x: number) => Math.round(x * 1000) / 10];
  const drift = pct((values.at(-1)! - values[0]!) / values[0]!);
  return values.length < 2
    ? null
    : { fromSecond: after[0]!.t, spreadPercent: pct((Math.max(...values) - min) / min), driftPercent: drift };
}

export async function soak(info: DevnetInfo, url: string, app: NextApp, metricsToken: string) {
  const [payers, pid, start] = [x402Payers(info), nextServerPid(app.pid), now()];
  const [rss, memory]: [Array<{ t: number; mib: number }>, Memory[]] = [[], []];
  const sample = async (t = Math.round((now() - start) / 1000)) => {
    const kib = rssKiB(pid);
    if (kib !== null) rss.push({ t, mib: Math.round(kib / 102.4) / 10 });
    const headers = { authorization: `Bearer ${metricsToken}` };
    const text = await fetch(`${app.url}/metrics`, { headers })
      .then((res) => res.text())
      .catch(() => null);
    const mib = (name: string) => {
      const line = text?.split("\n").find((l) => l.startsWith(`${name} `));
      return line ? Math.round((Number(line.split(" ")[1]) / 1048576) * 10) / 10 : Number.NaN;
    };
    const values = Object.fromEntries(Object.entries(METRICS).map(([k, v]) => [k, mib(v)]));
    if (text !== null) memory.push({ ...values, t } as Memory);
  };
  void sample();
  const timer = setInterval(() => void sample(), 5000);
  let required = "";
  const ask = async (n: number) =>
    (await ask402(url, feedbackBody(n, "soak"))).res.headers.get("payment-required");
  const call = async (n: number, startClock: () => void) => {
    if (!required || n % 50 === 0) required = (await ask(n)) ?? required;
    const signature = await payers[n % payers.length]!.sign(required);
    startClock();
    const headers = { "content-type": "application/json", "payment-signature": signature };
    const res = await fetch(url, { method: "POST", headers, body: feedbackBody(n, "soak") });
    await res.arrayBuffer();
    return res.status === 200 ? null : `${res.status}`;
  };
  const load = await closedLoop(
    Number.POSITIVE_INFINITY,
    32,
    call,
    () => now() >= start + config.soakSeconds * 1000,
  );
  clearInterval(timer);
  void sample();
  await sleep(500);
  const seconds = (now() - start) / 1000;
  const mibs = rss.map((r) => r.mib);
  const flat = { rss: flatness(memory, seconds, "rss"), heapUsed: flatness(memory, seconds, "heapUsed") };
  const { ok, errors, latency } = load;
  console.log(`  ${Math.round(seconds)} s: ${ok} ok, ${errors} errors; RSS ${mibs[0]} → ${mibs.at(-1)} MiB`);
  const rps = Math.round((ok / seconds) * 100) / 100;
  return {
    ...{ seconds: Math.round(seconds), concurrency: 32, protocol: "x402", ok, errors, rps, latency },
    rssMiB: { pid, start: mibs[0]!, end: mibs.at(-1)!, max: Math.max(...mibs), samples: rss },
    ...{ heapCapMiB: config.soakHeapMiB, memory: memory.sort((a, b) => a.t - b.t), flat },
  };
}
