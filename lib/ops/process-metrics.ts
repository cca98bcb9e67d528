import "server-only";
import { type ELDHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { type MetricFamily, oneSample } from "@/lib/http/prometheus";

// Started by the first scrape, so an instance that is never scraped pays nothing for it; each scrape
// reads the delays since the one before, then resets. On globalThis: one monitor per process.
const RESOLUTION_MS = 20;
const store = globalThis as unknown as { __feedbackLoopDelay?: ELDHistogram };

function loopDelay(): ELDHistogram | undefined {
  if (store.__feedbackLoopDelay) return store.__feedbackLoopDelay;
  const monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  monitor.enable();
  store.__feedbackLoopDelay = monitor;
  return undefined;
}

const gauge = oneSample;

/** Memory, CPU and event loop lag of this process, under the names Prometheus' Node.js clients use. */
export function processFamilies(): MetricFamily[] {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const families: MetricFamily[] = [
    gauge("process_resident_memory_bytes", "Resident memory size in bytes.", memory.rss),
    gauge("nodejs_heap_size_used_bytes", "V8 heap in use, in bytes.", memory.heapUsed),
    gauge("nodejs_heap_size_total_bytes", "V8 heap allocated, in bytes.", memory.heapTotal),
    gauge(
      "nodejs_external_memory_bytes",
      "Memory of C++ objects bound to JavaScript, in bytes.",
      memory.external,
    ),
    gauge("nodejs_array_buffers_bytes", "Memory of ArrayBuffers and Buffers, in bytes.", memory.arrayBuffers),
    {
      name: "process_cpu_seconds_total",
      help: "User and system CPU time spent, in seconds.",
      type: "counter",
      samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
    },
    gauge(
      "process_start_time_seconds",
      "Start time of the process since the Unix epoch, in seconds.",
      Math.round(Date.now() / 1000 - process.uptime()),
    ),
  ];
  const delay = loopDelay();
  if (delay && delay.count > 0) {
    // Each sample is the time between two ticks of a RESOLUTION_MS timer: the lag is what exceeds it.
    const lag = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS) / 1000;
    const help = (what: string) => `${what} event loop lag since the previous scrape, in seconds.`;
    families.push(
      gauge("nodejs_eventloop_lag_mean_seconds", help("Mean"), lag(delay.mean)),
      gauge("nodejs_eventloop_lag_p99_seconds", help("99th percentile"), lag(delay.percentile(99))),
      gauge("nodejs_eventloop_lag_max_seconds", help("Largest"), lag(delay.max)),
    );
    delay.reset();
  }
  return families;
}
