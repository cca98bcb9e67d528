import "server-only";
import { privateKeyToAccount } from "viem/accounts";
import { ownershipProofSigner } from "@/lib/chain/ownership-proof";
import { InvalidEnvError, parseServerEnv, type ServerEnv } from "@/lib/env";
import { offerReceiptKeyOf } from "@/lib/payment/offer-receipt";
import { databaseItems } from "./doctor-database";
import { type DoctorItem, fail, ok, warn } from "./doctor-item";
import { tempoItems } from "./doctor-tempo";
import { x402Items } from "./doctor-x402";
import { estimatedRandomBits, SECRET_BITS_REQUIRED } from "./secret-strength";

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
 * The shared secrets hold about 32 random bytes each: the database keeps a slow digest of each to compare
 * instances, and a reader of a backup could test guesses of a secret a person chose (and forge what it signs).
 */
function secretStrengthItem(e: ServerEnv): DoctorItem {
  const item = "secret strength";
  const weak = (["MPP_SECRET_KEY", "APP_SECRET"] as const).filter(
    (name) => estimatedRandomBits(e[name]) < SECRET_BITS_REQUIRED,
  );
  if (weak.length) {
    return fail(
      item,
      `${weak.join(" and ")} ${weak.length === 1 ? "looks" : "look"} like fewer than 32 random bytes (a phrase, a repeat, or too short): whoever reads a backup or a log can test guesses of it, and forge what it signs`,
      "make each with `openssl rand -hex 32`, the same on every instance",
    );
  }
  return ok(item, "MPP_SECRET_KEY and APP_SECRET each hold about 32 random bytes");
}

/** The key that signs x402 offers and receipts: where it is published, or that nothing is signed. */
function offerReceiptItem(e: ServerEnv): DoctorItem {
  const item = "x402 offers and receipts";
  const key = offerReceiptKeyOf(e);
  if (!key) {
    return warn(
      item,
      "OFFER_RECEIPT_PRIVATE_KEY is not set: 402s carry no signed offer and paid answers no signed receipt",
      "set OFFER_RECEIPT_PRIVATE_KEY to a new key of its own (docs/deploy.md), the same on every instance",
    );
  }
  return ok(item, `signed as ${key.signer.kid}, published at ${e.PUBLIC_ORIGIN}/.well-known/did.json`);
}

/**
 * The ownership proofs /.well-known/x402 publishes: each must be signed, for PUBLIC_ORIGIN, by a wallet
 * the origin is paid to (what a scanner checks). X402_PAY_TO or MPP_RECIPIENT unproven is an error about money:
 * nothing shows that the operator holds the key of the wallet every payment goes to (a typo, or a copied
 * address, sends them all to a stranger).
 */
async function ownershipItem(e: ServerEnv): Promise<DoctorItem> {
  const item = "ownership proofs";
  const fix = "sign PUBLIC_ORIGIN with the receiving wallet: npm run ownership-proof (docs/deploy.md)";
  const proofs = e.X402_OWNERSHIP_PROOFS ?? [];
  const receivers: Record<string, string> = { X402_PAY_TO: e.X402_PAY_TO, MPP_RECIPIENT: e.MPP_RECIPIENT };
  // The refund wallet's proof is signed by the service itself; one configured for it is fine too.
  if (e.X402_REFUND_PRIVATE_KEY) {
    receivers["the refund wallet"] = privateKeyToAccount(e.X402_REFUND_PRIVATE_KEY as `0x${string}`).address;
  }
  const proven = new Set<string>();
  for (const [i, proof] of proofs.entries()) {
    const signer = (await ownershipProofSigner(e.PUBLIC_ORIGIN, proof))?.toLowerCase();
    const variables = Object.entries(receivers).flatMap(([name, address]) =>
      address.toLowerCase() === signer ? [name] : [],
    );
    if (!variables.length) {
      return fail(
        item,
        `X402_OWNERSHIP_PROOFS proof ${i + 1} is signed by ${signer ?? "no key"}, not by a wallet this origin is paid to (X402_PAY_TO, MPP_RECIPIENT) for ${e.PUBLIC_ORIGIN}: scanners reject it`,
        `remove it, then ${fix}`,
      );
    }
    for (const name of variables) proven.add(name);
  }
  const unproven = ["X402_PAY_TO", "MPP_RECIPIENT"].filter((name) => !proven.has(name));
  if (unproven.length) {
    return fail(
      item,
      `X402_OWNERSHIP_PROOFS proves no ownership of ${unproven.map((name) => `${name} (${receivers[name]})`).join(" or ")}: nothing shows this deployment holds the key of the wallet its payments go to, so a mistyped or copied address would send every payment to a stranger (and scanners such as x402scan rank the origin lower)`,
      fix,
    );
  }
  return ok(item, `${[...proven].join(" and ")} proven for ${e.PUBLIC_ORIGIN}`);
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
    ownershipItem(e).then((item) => [item]),
    x402Items(e, timeoutMs),
    tempoItems(e, timeoutMs),
    databaseItems(e, timeoutMs, options.migrationsFolder),
  ]);
  return [
    ok("configuration", "every variable is valid"),
    originItem(e),
    secretStrengthItem(e),
    offerReceiptItem(e),
    ...groups.flat(),
  ];
}

/** One line per item: its status, the item, what is wrong and how to fix it. */
export function formatItem(item: DoctorItem): string {
  const fix = item.fix && item.status !== "ok" ? `. Fix: ${item.fix}` : "";
  return `${item.status.padEnd(5)}  ${item.item}: ${item.detail.replace(/\.$/, "")}${fix}`;
}
