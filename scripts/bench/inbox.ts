/** The inbox section over HTTP (its rows seeded by inbox-seed.ts), and the floor under any call. */
import { Agent, request as httpRequest } from "node:http";
import { parseServerTiming } from "../../lib/http/server-timing";
import { signInHeader } from "../../testing/sign-in";
import type { DevnetInfo } from "../devnet/start-devnet";
import { config } from "./config";
import { now, type Summary, send, summarize } from "./load";
import { processCpuMs } from "./machine";

export const INBOX_NAMESPACE = "bench-inbox";
type PreparedInbox = { cases: Array<{ name: string; params: Record<string, string> }>; pageLimit: number };
type FloorTarget = { url: string; pid: number };
export type Floor = { fetch?: Summary; nodeHttp?: Summary; cpuMsPerCall?: number };

/** A constant answer from ours (/healthz) and bare Next.js (api/ping), by fetch and node:http; CPU per call. */
export async function httpFloor(targets: { ours: FloorTarget; bare?: FloorTarget }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const clients = {
    fetch: async (url: string) => (await fetch(url)).json(),
    // A bare GET, its answer drained unread.
    nodeHttp: (url: string) =>
      new Promise<void>((resolve, reject) => {
        httpRequest(url, { agent }, (res) => res.resume().on("end", resolve))
          .on("error", reject)
          .end();
      }),
  };
  const urls = Object.entries(targets).filter((e): e is [string, FloorTarget] => e[1] !== undefined);
  const out: Record<string, Floor> = Object.fromEntries(urls.map(([target]) => [target, {}]));
  for (const [name, call] of Object.entries(clients)) {
    const latencies: Record<string, number[]> = Object.fromEntries(urls.map(([target]) => [target, []]));
    for (let i = -20; i < config.floorSamples; i++) {
      for (const [target, { url }] of urls) {
        const t0 = now();
        await call(url);
        if (i >= 0) latencies[target]!.push(now() - t0);
      }
    }
    for (const [target, values] of Object.entries(latencies))
      out[target]![name as "fetch"] = summarize(values);
  }
  for (const [target, { url, pid }] of urls) {
    const before = processCpuMs(pid);
    for (let i = 0; i < config.floorCpuCalls; i++) await clients.nodeHttp(url);
    const after = processCpuMs(pid);
    if (before !== null && after !== null)
      out[target]!.cpuMsPerCall = Math.round(((after - before) / config.floorCpuCalls) * 100) / 100;
  }
  agent.destroy();
  return out as { ours: Floor; bare?: Floor };
}

/**
 * Each page with a fresh sign-in proof per call, all signed before the clock so the calls run back to back,
 * node:http and fetch (what most agents call with) alternating call by call, after `config.warmup` untimed
 * signed reads of the first page.
 */
export async function inboxOverHttp(appUrl: string, info: DevnetInfo, inbox: PreparedInbox) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples = config.listSamples;
  const out = [];
  // The server is fresh: as for paid calls, its first signed reads (JIT, the pools, route modules) stay out of
  // every case, else the first case measured pays for them alone.
  const first = `${appUrl}/api/namespace/list?${new URLSearchParams({ namespace: INBOX_NAMESPACE })}`;
  for (let i = 0; i < config.warmup; i++) {
    const proof = await signInHeader(fetch, first, info.accounts[0]!.privateKey);
    await send(agent, first, { "SIGN-IN-WITH-X": proof });
  }
  for (const c of inbox.cases) {
    const limit = String(inbox.pageLimit);
    const url = `${appUrl}/api/namespace/list?${new URLSearchParams({ namespace: INBOX_NAMESPACE, limit, ...c.params })}`;
    const proofs: string[] = [];
    for (let i = -4; i < 2 * samples; i++)
      proofs.push(await signInHeader(fetch, url, info.accounts[0]!.privateKey));
    const clients = {
      nodeHttp: async (proof: string) => {
        const res = await send(agent, url, { "SIGN-IN-WITH-X": proof });
        return { status: res.status, body: res.text, timing: res.headers["server-timing"] };
      },
      fetch: async (proof: string) => {
        const res = await fetch(url, { headers: { "SIGN-IN-WITH-X": proof } });
        return { status: res.status, body: await res.text(), timing: res.headers.get("server-timing") };
      },
    };
    const latencies = { nodeHttp: [] as number[], fetch: [] as number[] };
    const serverMs: Record<string, number[]> = {};
    let [items, failures] = [-1, 0];
    // Four unmeasured calls first, so the first page does not pay for a cold cache alone.
    for (let i = -4; i < 2 * samples; i++) {
      const client = i % 2 === 0 ? "nodeHttp" : "fetch";
      const t0 = now();
      const res = await clients[client](proofs[i + 4]!);
      const body = JSON.parse(res.body) as { count?: number };
      const dt = now() - t0;
      if (i < 0) continue;
      if (res.status !== 200) {
        failures++;
        continue;
      }
      latencies[client].push(dt);
      for (const [phase, ms] of Object.entries(parseServerTiming(String(res.timing ?? "")))) {
        serverMs[phase] = [...(serverMs[phase] ?? []), ms];
      }
      items = body.count ?? -1;
    }
    const [latency, fetchLatency] = [summarize(latencies.nodeHttp), summarize(latencies.fetch)];
    const server = Object.fromEntries(Object.entries(serverMs).map(([p, v]) => [p, summarize(v)]));
    out.push({ name: c.name, items, failures, latency, fetchLatency, server });
    console.log(
      `  ${c.name.padEnd(44)} p50 ${latency.p50} ms (fetch ${fetchLatency.p50} ms), ${failures} failed`,
    );
  }
  agent.destroy();
  return out;
}
