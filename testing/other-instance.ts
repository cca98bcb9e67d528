import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/** Another instance of the service holding signing-key leases, in a process of its own. */
export type OtherInstance = { got: Record<string, string>; process: ChildProcess };

/**
 * Starts testing/lease-holder.ts with this process's configuration (minus INSTANCE_ID: the default) and
 * resolves once it has asked for every lease, with what it got for each address.
 */
export function otherInstanceHolding(addresses: string[]): Promise<OtherInstance> {
  const env = { ...process.env };
  delete env.INSTANCE_ID;
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join("testing", "lease-holder.ts"), ...addresses],
    { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the other instance exited with ${code}: ${out}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("ready\n")) return;
      const got = Object.fromEntries(
        out
          .split("\n")
          .filter((line) => line.includes(" "))
          .map((line) => line.split(" ") as [string, string]),
      );
      resolve({ got, process: child });
    });
  });
}

/** Kills a process as a crash does (SIGKILL: no cleanup) and waits until it is gone. */
export function crash(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
