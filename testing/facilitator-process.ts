import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { crash } from "./other-instance";

export type FacilitatorProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  /** kill -9: no cleanup, as a crash. */
  crash(): Promise<void>;
};

type Options = { rpcUrl: string; network: string; privateKey: string; port?: number };

/**
 * Starts `scripts/facilitator.ts` (what `npm run facilitator` runs) as a process of its own, and
 * resolves once it listens. Port 0 picks a free port; a restart passes the port it had.
 */
export function startFacilitatorProcess(options: Options): Promise<FacilitatorProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", "facilitator.ts")], {
    cwd: process.cwd(),
    // Only what the facilitator reads: it shares nothing with the service's configuration.
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      FACILITATOR_PRIVATE_KEY: options.privateKey,
      X402_RPC_URL: options.rpcUrl,
      X402_NETWORK: options.network,
      FACILITATOR_PORT: String(options.port ?? 0),
      FACILITATOR_TIMEOUT_MS: "2000",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const failed = (why: string) => reject(new Error(`the facilitator did not start (${why}): ${out}`));
    child.on("error", (error) => failed(error.message));
    child.on("exit", (code) => failed(`exit ${code}`));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /on (http:\/\/[^\s]+:(\d+))/.exec(out);
      if (!match) return;
      child.removeAllListeners("exit");
      resolve({ url: match[1]!, port: Number(match[2]), child, crash: () => crash(child) });
    });
  });
}
