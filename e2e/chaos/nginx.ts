import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Balancer } from "./balancer";

const SITE = fileURLToPath(new URL("../../deploy/nginx.conf", import.meta.url));

/** Debian's nginx (in /usr/sbin, which a user's PATH may lack), or one on the PATH; null when absent. */
export function nginxBinary(): string | null {
  if (existsSync("/usr/sbin/nginx")) return "/usr/sbin/nginx";
  try {
    return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/** Replaces what `pattern` matches in the shipped file, which must match exactly `count` times. */
function replaceIn(text: string, pattern: RegExp, by: string, count: number): string {
  const found = text.match(pattern)?.length ?? 0;
  if (found !== count) throw new Error(`deploy/nginx.conf: ${pattern} matched ${found} times, not ${count}`);
  return text.replace(pattern, by);
}

/** The paid calls' limit: nginx's `rate` (such as "1r/s") and `burst`. */
export type PaidLimit = { rate: string; burst: number };

/**
 * deploy/nginx.conf with this run's port, instances and log, and the paid calls' limit when one is given:
 * nothing else of it changes.
 */
async function site(port: number, upstreams: string[], dir: string, paid?: PaidLimit): Promise<string> {
  let text = await readFile(SITE, "utf8");
  if (paid) {
    text = replaceIn(
      text,
      /zone=feedback_paid:10m rate=\d+r\/s;/g,
      `zone=feedback_paid:10m rate=${paid.rate};`,
      1,
    );
    text = replaceIn(
      text,
      /zone=feedback_paid burst=\d+ nodelay;/g,
      `zone=feedback_paid burst=${paid.burst} nodelay;`,
      1,
    );
  }
  text = replaceIn(text, /^\s*listen \[::\]:80;\n/gm, "", 1);
  text = replaceIn(text, /listen 80;/g, `listen 127.0.0.1:${port};`, 1);
  const servers = upstreams
    .map((u) => `server ${new URL(u).host} max_fails=5 fail_timeout=5s;`)
    .join("\n    ");
  text = replaceIn(
    text,
    /server 127\.0\.0\.1:3000 max_fails=5 fail_timeout=5s;\n\s*server 127\.0\.0\.1:3001 max_fails=5 fail_timeout=5s;/g,
    servers,
    1,
  );
  return replaceIn(text, /\/var\/log\/nginx\/feedback\.access\.log/g, path.join(dir, "access.log"), 1);
}

/** The process-wide part a distribution's nginx.conf holds, pointed into `dir`: no root-owned path. */
function main(dir: string, workerConnections: number): string {
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `${kind}_temp_path ${path.join(dir, `${kind}-temp`)};`)
    .join("\n  ");
  return `worker_processes 1;
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "error.log")} notice;
events { worker_connections ${workerConnections}; }
http {
  ${temp}
  include ${path.join(dir, "feedback.conf")};
}
`;
}

/** One line of the access log in deploy/nginx.conf's format. */
export type AccessLine = { client: string; status: number; requestId: string; upstream: string };

/** nginx running deploy/nginx.conf in front of the instances, as a child with its own prefix and logs. */
export type Nginx = Balancer & { accessLog(): AccessLine[]; errorLog(): string };

/**
 * Starts nginx on `port` once the instances are known (an upstream block cannot be empty), and reloads
 * it (SIGHUP) when they change. `-g 'daemon off;'` keeps the master process a child of this one. Each
 * request in flight holds two of its `workerConnections` (the client's and the instance's): 512 by
 * default, as Debian's nginx.conf has it. `paidLimit` replaces the shipped limit on paid calls.
 */
export async function startNginx(
  port: number,
  { workerConnections = 512, paidLimit }: { workerConnections?: number; paidLimit?: PaidLimit } = {},
): Promise<Nginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error("nginx is not installed (apt-get install -y nginx)");
  const dir = await mkdtemp(path.join(tmpdir(), "nginx-"));
  // Workers run as nobody when the master runs as root: they must reach the temp paths inside.
  await chmod(dir, 0o755);
  await writeFile(path.join(dir, "nginx.conf"), main(dir, workerConnections));
  let child: ChildProcess | undefined;
  let current = "";
  const url = `http://127.0.0.1:${port}`;
  const read = (name: string) => {
    const file = path.join(dir, name);
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  };
  const accessLog = (): AccessLine[] =>
    read("access.log")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const m = /^(\S+) \[[^\]]*\] "[^"]*" (\d+) \d+ rid=(\S+) upstream=(\S+)/.exec(line);
        return {
          client: m?.[1] ?? "",
          status: Number(m?.[2]),
          requestId: m?.[3] ?? "",
          upstream: m?.[4] ?? "",
        };
      });
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
  // The master and its workers share a process group: SIGKILL to the master alone leaves workers serving.
  const killAll = () => {
    try {
      if (child?.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  process.once("exit", killAll);
  const serving = () =>
    fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  return {
    url,
    async setUpstreams(urls) {
      const key = urls.join(",");
      if (key === current || urls.length === 0) return;
      current = key;
      await writeFile(path.join(dir, "feedback.conf"), await site(port, urls, dir, paidLimit));
      const conf = path.join(dir, "nginx.conf");
      execFileSync(binary, ["-t", "-q", "-p", dir, "-c", conf], { stdio: "pipe" });
      if (child) {
        child.kill("SIGHUP");
        await new Promise((r) => setTimeout(r, 1_000));
        return;
      }
      child = spawn(binary, ["-p", dir, "-c", conf, "-g", "daemon off;"], {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const errors: string[] = [];
      child.stderr?.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
      const deadline = Date.now() + 20_000;
      while (!(await serving())) {
        if (child.exitCode !== null || Date.now() > deadline) {
          killAll();
          throw new Error(`nginx did not come up: ${errors.join("") || "no answer within 20 s"}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    stats() {
      const perUpstream: Record<string, number> = {};
      let failed = 0;
      for (const line of accessLog()) {
        if (line.upstream !== "-") perUpstream[line.upstream] = (perUpstream[line.upstream] ?? 0) + 1;
        if (line.status === 502 || line.status === 504) failed++;
      }
      return { perUpstream, failed };
    },
    accessLog,
    errorLog: () => read("error.log"),
    async close() {
      // SIGTERM: the master stops its workers, then itself; whatever is left of the group goes after.
      child?.kill("SIGTERM");
      await Promise.race([exited(), new Promise((r) => setTimeout(r, 10_000))]);
      killAll();
      await exited();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
