import "server-only";
import { InvalidEnvError, parseServerEnv, type ServerEnv } from "@/lib/env";
import { databaseItems } from "./doctor-database";
import { type DoctorItem, fail, ok } from "./doctor-item";
import { tempoItems } from "./doctor-tempo";
import { x402Items } from "./doctor-x402";

/** Each node gets this long to answer one item: a pre-flight check reports, it does not wait. */
const DEFAULT_TIMEOUT_MS = 5_000;
const DEVNET_NETWORK = "eip155:31337";

/** Sign-in proofs and 402 resource URLs carry PUBLIC_ORIGIN: only the local devnet may use http. */
function originItem(e: ServerEnv): DoctorItem {
  const item = "public origin";
  if (e.PUBLIC_ORIGIN.startsWith("https://")) return ok(item, e.PUBLIC_ORIGIN);
  if (e.X402_NETWORK === DEVNET_NETWORK) return ok(item, `${e.PUBLIC_ORIGIN} (http: the local devnet only)`);
  return fail(
    item,
    `PUBLIC_ORIGIN is ${e.PUBLIC_ORIGIN} on ${e.X402_NETWORK}: wallets sign in to it and payments name it, so outside the devnet it must be https`,
    "set PUBLIC_ORIGIN to the https:// origin clients reach",
  );
}

/**
 * Every pre-flight item for a raw environment, in a fixed order: the configuration, the public origin,
 * the x402 chain and what needs it, the Tempo chain and the payout wallet, the database. Sends nothing.
 */
export async function runDoctor(
  raw: Record<string, string | undefined>,
  options: { timeoutMs?: number; migrationsFolder?: string } = {},
): Promise<DoctorItem[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let e: ServerEnv;
  try {
    e = parseServerEnv(raw);
  } catch (error) {
    if (!(error instanceof InvalidEnvError)) throw error;
    // Nothing else can be checked against a configuration the app would refuse to start with.
    return error.problems.map((problem) =>
      fail(
        "configuration",
        problem,
        `correct ${problem.split(":")[0]} (.env.example describes every variable)`,
      ),
    );
  }
  const groups = await Promise.all([
    x402Items(e, timeoutMs),
    tempoItems(e, timeoutMs),
    databaseItems(e, timeoutMs, options.migrationsFolder),
  ]);
  return [ok("configuration", "every variable is valid"), originItem(e), ...groups.flat()];
}

/** One line per item: its status, the item, what is wrong and how to fix it. */
export function formatItem(item: DoctorItem): string {
  const fix = item.fix && item.status !== "ok" ? `. Fix: ${item.fix}` : "";
  return `${item.status.padEnd(5)}  ${item.item}: ${item.detail.replace(/\.$/, "")}${fix}`;
}
