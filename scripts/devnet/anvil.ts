import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

export type AnvilOptions = {
  /** 0 or omitted: anvil picks a free port and we read it from its "Listening on" line. */
  port?: number;
  chainId: number;
  /** Seconds between blocks; omitted = automine (a block per transaction). */
  blockTime?: number;
  extraArgs?: string[];
  /** How long to wait for `eth_chainId` to answer (default 30 s). */
  timeoutMs?: number;
};

export type AnvilHandle = {
  rpcUrl: string;
  process: ChildProcess;
  /** Idempotent: SIGTERM, then SIGKILL if anvil is still alive after 5 s. */
  stop(): Promise<void>;
};

const require = createRequire(import.meta.url);
// npm package names use Go-style arch names, Node uses its own.
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** Prefer the platform binary (no wrapper process); fall back to the package's node launcher. */
function resolveAnvilCommand(): { command: string; args: string[] } {
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  const arch = ARCH[process.arch];
  if (arch) {
    try {
      const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
      const bin = join(dirname(pkg), "bin", exe);
      if (existsSync(bin)) return { command: bin, args: [] };
    } catch {
      // platform package not installed: use the launcher below
    }
  }
  const launcher = require.resolve("@foundry-rs/anvil/bin.mjs");
  return { command: process.execPath, args: [launcher] };
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** The first port the kernel hands out to outgoing connections (and to a listen on port 0). */
function ephemeralStart(): number {
  try {
    return (
      Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768
    );
  } catch {
    return 32_768;
  }
}

/**
 * A free TCP port on 127.0.0.1 for a server started a moment later (racy by nature; prefer port 0 when the
 * server can report its own). Chosen at random below the kernel's ephemeral range: a port from that range
 * can be taken meanwhile by any outgoing connection on a busy machine, as test suites running side by side
 * make, while one below it is only ever taken by a server binding it on purpose.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralStart());
  for (let tries = 0; tries < 100; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high} after 100 tries`);
}

// anvil's banner lists private keys and the mnemonic: keep them out of error messages.
function redact(text: string): string {
  return text.replace(/0x[0-9a-fA-F]{64}\b/g, "0x<redacted>").replace(/(Mnemonic:).*$/gm, "$1 <redacted>");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rpcChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number(body.result) : undefined;
  } catch {
    return undefined;
  }
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilHandle> {
  const { port = 0, chainId, blockTime, extraArgs = [], timeoutMs = 30_000 } = options;
  const { command, args } = resolveAnvilCommand();
  args.push("--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId));
  if (blockTime !== undefined) args.push("--block-time", String(blockTime));
  args.push(...extraArgs);

  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, TARGET_TOOL: "anvil" },
  });

  // Keep only the tail of the output: anvil logs every RPC call and would grow without bound.
  let output = "";
  let listenPort: number | undefined;
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-16_384);
    listenPort ??= Number(/Listening on [^\s:]+:(\d+)/.exec(output)?.[1]) || undefined;
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

  let exitReason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitReason ??= `exited with ${signal ?? `code ${code}`}`;
      resolve();
    });
    child.once("error", (err) => {
      exitReason ??= `failed to spawn: ${err.message}`;
      resolve();
    });
  });

  // Best effort so an exiting parent does not leave anvil behind (SIGTERM: the npm launcher forwards it).
  const killOnExit = () => child.kill("SIGTERM");
  process.once("exit", killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off("exit", killOnExit);
      if (child.exitCode !== null || child.signalCode !== null || exitReason) return;
      child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const gone = await Promise.race([
        exited.then(() => true),
        new Promise<false>((r) => {
          timer = setTimeout(() => r(false), 5_000);
        }),
      ]);
      clearTimeout(timer); // or a script would linger 5 s after stop()
      if (!gone) {
        child.kill("SIGKILL");
        await exited;
      }
    })();
    return stopping;
  };

  // With --silent there is no "Listening on" line, so trust the requested port.
  const silent = extraArgs.includes("--silent");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitReason) break;
    const knownPort = listenPort ?? (silent && port ? port : undefined);
    if (knownPort) {
      const rpcUrl = `http://127.0.0.1:${knownPort}`;
      const answered = await rpcChainId(rpcUrl);
      if (answered === chainId) return { rpcUrl, process: child, stop };
      if (answered !== undefined) {
        await stop();
        throw new Error(`anvil at ${rpcUrl} answered chain id ${answered}, expected ${chainId}`);
      }
    }
    await sleep(50);
  }

  const why = exitReason ? `anvil ${exitReason}` : `anvil did not answer eth_chainId within ${timeoutMs} ms`;
  await stop();
  const tail = redact(output).trim().split("\n").slice(-20).join("\n");
  const shownArgs = args.map((a, i) => (args[i - 1] === "--mnemonic" ? "<redacted>" : a)).join(" ");
  throw new Error(`${why} (${command} ${redact(shownArgs)})\n--- anvil output (tail) ---\n${tail}`);
}
