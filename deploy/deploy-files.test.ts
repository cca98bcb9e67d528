import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ENTRY_POINTS } from "../scripts/build-scripts";

// The deployment files, read as Docker, compose and systemd would: no container runtime runs here, so what
// each promises an operator (signals reach the server, health is probed, a dead process comes back, the
// instances listen where only the proxy reaches them) is checked in their text.
const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, "..", file), "utf8");

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(" ") };
    });
}

/** The process a command starts: the exec form's first word, or what `sh -c "exec …"` replaces itself with. */
function firstProcess(command: string[] | string): string {
  const argv = Array.isArray(command) ? command : ["sh", "-c", command];
  if (argv[0] === "sh" && argv[1] === "-c") {
    const script = argv[2]!.trim();
    expect(script, "a shell as the first process must exec the server, or SIGTERM never reaches it").toMatch(
      /^exec /,
    );
    return script.slice("exec ".length).split(/\s+/)[0]!;
  }
  return argv[0]!;
}

/** The Dockerfile's stages in order: each FROM's image and `AS` name, and the instructions under it. */
function stages(ops: { op: string; args: string }[]) {
  const out: { image: string; name?: string; ops: { op: string; args: string }[] }[] = [];
  for (const i of ops) {
    if (i.op === "FROM") {
      const [image, as, name] = i.args.replace(/--platform=\S+\s+/, "").split(/\s+/);
      out.push({ image: image!, name: as?.toUpperCase() === "AS" ? name : undefined, ops: [] });
    } else out.at(-1)?.ops.push(i);
  }
  return out;
}

/** The package directories a `rm -rf` in `command` deletes under node_modules/ (bin links aside). */
const removedPackages = (command: string) =>
  [...command.matchAll(/(?:^|\s)node_modules\/((?!\.bin\/)(?:@[^/\s]+\/)?[^/\s]+)/g)].map((m) => m[1]!);

describe("deploy/Dockerfile", () => {
  const ops = instructions(read("deploy/Dockerfile"));
  const all = stages(ops);
  const runtime = all.at(-1)!;
  const runs = (stage: { ops: { op: string; args: string }[] }) =>
    stage.ops.filter((i) => i.op === "RUN").map((i) => i.args);
  it("runs the server as the container's first process, not npm or a shell that keeps SIGTERM from it", () => {
    const cmd = ops.filter((i) => i.op === "CMD").at(-1)!;
    expect(firstProcess(JSON.parse(cmd.args))).toBe("node");
  });

  it("has a HEALTHCHECK on /healthz, with time to start", () => {
    const check = ops.find((i) => i.op === "HEALTHCHECK");
    expect(check?.args).toContain("/healthz");
    expect(check?.args).toMatch(/--start-period=\d+s/);
  });

  it("runs the server as an unprivileged user, set before the command", () => {
    const cmdAt = runtime.ops.findLastIndex((i) => i.op === "CMD");
    const user = runtime.ops.slice(0, cmdAt).findLast((i) => i.op === "USER");
    expect(user?.args, "a USER before the runtime stage's CMD").toBeDefined();
    expect(user!.args.split(":")[0]).not.toMatch(/^(root|0)$/);
  });

  it("pins every base image by digest, so a rebuild never changes its base unnoticed", () => {
    const names = new Set<string>();
    for (const stage of all) {
      if (!names.has(stage.image)) expect(stage.image).toMatch(/^[\w./:-]+@sha256:[0-9a-f]{64}$/);
      if (stage.name) names.add(stage.name);
    }
  });

  it("installs exactly the lockfile with `npm ci`, never `npm install`, and runs no install script", () => {
    const installs = all.flatMap(runs).filter((r) => /\bnpm (ci|install|i)\b/.test(r));
    expect(installs.length).toBeGreaterThan(0);
    for (const run of installs) {
      expect(run).not.toMatch(/\bnpm (install|i)\b/);
      expect(run).toMatch(/\bnpm ci\b.*--ignore-scripts/);
    }
  });

  it("builds in one stage and runs on production dependencies and the built output alone", () => {
    const build = all.find((s) => s.name && runs(s).some((r) => /npm run build\b/.test(r)));
    expect(build, "a named stage that runs `npm run build`").toBeDefined();
    expect(runs(build!).join(" && ")).toMatch(/npm run build:scripts/);
    // The runtime installs production dependencies itself and takes the build stage's output, never the sources.
    expect(runs(runtime).some((r) => /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(runs(runtime).join(" ")).not.toMatch(/npm run build|tsx/);
    const copies = runtime.ops.filter((i) => i.op === "COPY").map((i) => i.args);
    expect(
      copies.filter((c) => /^(--chown=\S+\s+)?\.\s/.test(c)),
      "no `COPY . .` in the runtime",
    ).toEqual([]);
    for (const from of [".next", "dist"])
      expect(copies.some((c) => c.includes(`--from=${build!.name}`) && c.includes(`/${from} `))).toBe(true);
  });

  it("removes every dev dependency `npm ci --omit=dev` keeps, and no production package", () => {
    // npm keeps a dev dependency that a production package names as an optional peer (`devOptional`).
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>;
    };
    const { devDependencies } = JSON.parse(read("package.json")) as {
      devDependencies: Record<string, string>;
    };
    const kept = Object.keys(devDependencies).filter((n) => lock.packages[`node_modules/${n}`]?.devOptional);
    const removed = runs(runtime).flatMap(removedPackages);
    expect(removed).toEqual(expect.arrayContaining(kept));
    for (const dir of removed) {
      const under = Object.entries(lock.packages).filter(
        ([p]) => p === `node_modules/${dir}` || p.startsWith(`node_modules/${dir}/`),
      );
      for (const [p, entry] of under)
        expect(entry.dev || entry.devOptional || entry.optional, `${p} is a production package`).toBe(true);
    }
  });
});

describe("deploy/compose.yaml", () => {
  const compose = parse(read("deploy/compose.yaml"), { merge: true }) as {
    services: Record<
      string,
      Record<string, unknown> & { depends_on?: Record<string, { condition: string }> }
    >;
  };
  const services = Object.entries(compose.services);

  it("restarts every service that exits, and starts none before what it needs is healthy", () => {
    for (const [name, service] of services) {
      expect(service.restart, `${name} restarts`).toBe("unless-stopped");
      for (const [needed, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition, `${name} waits for ${needed}`).toBe("service_healthy");
        const health = compose.services[needed]!.healthcheck as { disable?: boolean } | undefined;
        // The web image's own HEALTHCHECK counts; a service with its check disabled cannot be waited for.
        expect(health?.disable, `${needed} has a health check`).not.toBe(true);
      }
    }
    expect(compose.services.db!.healthcheck).toBeDefined();
  });

  it("runs node itself as each service's first process, and offers the standalone facilitator", () => {
    for (const [name, service] of services) {
      if (service.command && !String(service.image ?? "").startsWith("nginx")) {
        expect(firstProcess(service.command as string[]), name).toBe("node");
      }
    }
    expect(compose.services.facilitator?.profiles).toEqual(["facilitator"]);
  });

  it("runs the worker and the facilitator from the scripts the image builds, without tsx", () => {
    for (const name of ["worker", "facilitator"]) {
      const argv = compose.services[name]!.command as string[];
      expect(argv.join(" "), name).not.toMatch(/tsx|\.ts\b/);
      const script = argv.find((a) => a.startsWith("dist/"));
      expect(script, name).toBeDefined();
      expect(ENTRY_POINTS.map((e) => `dist/${e}.mjs`)).toContain(script);
    }
  });
});

describe("the systemd units in docs/deploy.md", () => {
  it("bind every web instance to 127.0.0.1, so only nginx reaches it", () => {
    const execStarts = [...read("docs/deploy.md").matchAll(/^ExecStart=(.*npm start.*)$/gm)].map((m) => m[1]);
    expect(execStarts.length).toBeGreaterThan(0);
    for (const line of execStarts) expect(line).toContain("--hostname 127.0.0.1");
  });
});

describe("deploy/compose.yaml's secrets", () => {
  const text = read("deploy/compose.yaml");
  const compose = parse(text, { merge: true }) as {
    services: Record<
      string,
      { env_file?: string; environment?: Record<string, string>; networks?: string[]; ports?: string[] }
    >;
  };
  const { services } = compose;

  it("writes no secret in the file, and gives each process only its own file", () => {
    expect(text).not.toMatch(
      /POSTGRES_PASSWORD:|postgres:\/\/[^@\s]+:[^@\s]+@|PRIVATE_KEY=0x|SECRET(_KEY)?:/,
    );
    expect(services.db!.env_file).toBe("db.env");
    expect(services.facilitator!.env_file).toBe("facilitator.env");
    for (const name of ["web1", "web2", "worker"]) expect(services[name]!.env_file, name).toBe("service.env");
    expect(services.nginx!.env_file).toBeUndefined();
  });

  it("keeps the facilitator off nginx's and the database's network, and publishes nginx alone", () => {
    const reach = (name: string) => new Set(services[name]!.networks ?? []);
    const shared = (a: string, b: string) => [...reach(a)].filter((n) => reach(b).has(n));
    expect(shared("facilitator", "nginx")).toEqual([]);
    expect(shared("facilitator", "db")).toEqual([]);
    for (const name of ["web1", "web2", "worker"])
      expect(shared("facilitator", name).length, name).toBeGreaterThan(0);
    expect(
      Object.entries(services)
        .filter(([, s]) => s.ports?.length)
        .map(([n]) => n),
    ).toEqual(["nginx"]);
  });
});
