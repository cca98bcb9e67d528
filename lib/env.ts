import "server-only";
import { isAddress } from "viem";
import { z } from "zod";
import { parseUsd, USD_PATTERN } from "@/lib/money";

/** A 20-byte address; in mixed case only with its EIP-55 checksum, which catches a mistyped character. */
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
  .refine(
    // A malformed value is named once, by the pattern above.
    (a) => !/^0x[0-9a-fA-F]{40}$/.test(a) || isAddress(a, { strict: true }),
    "has a wrong EIP-55 checksum (its mixed case does not match): a mistyped character? Copy it again, or write it all lowercase only once you are sure of it",
  );
/** Where payments go: the zero address has no key, so whatever is paid to it is gone. */
const recipient = address.refine(
  (a) => !/^0x0{40}$/.test(a),
  "must not be the zero address: payments to it are lost",
);
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte private key");
/** A comma-separated list, each entry trimmed and empty ones dropped; each entry is checked by `.pipe`. */
const commaList = z.string().transform((list) =>
  list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean),
);
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const serverSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** Public origin the service is reached at; sign-in proofs are bound to it, never to the Host header. */
    PUBLIC_ORIGIN: httpUrl.transform((u) => new URL(u).origin),
    /** Where agents and operators reach the people running this deployment (OpenAPI info.contact). */
    CONTACT_EMAIL: z.email("must be an email address").optional(),
    /** PostgreSQL URL; when unset the embedded PGlite database in PGLITE_DIR is used. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    PGLITE_DIR: z.string().min(1).default(".data/pglite"),
    /** How long a start waits for PostgreSQL to answer before it exits non-zero (a supervisor restarts it). */
    DB_START_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
    /** Secret (≥ 32 chars) that signs list cursors so a client cannot forge one. */
    APP_SECRET: z.string().min(32, "must be at least 32 characters"),
    X402_NETWORK: z.string().regex(/^eip155:\d+$/, 'must be a CAIP-2 EVM network such as "eip155:8453"'),
    X402_RPC_URL: httpUrl,
    X402_ASSET: address,
    X402_ASSET_NAME: z.string().min(1).default("USD Coin"),
    X402_ASSET_VERSION: z.string().min(1).default("2"),
    X402_ASSET_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
    X402_PAY_TO: recipient,
    /**
     * Either an in-process facilitator settling from these keys (comma-separated; each app instance
     * leases one at a time, so give at least one per instance), or a remote facilitator URL.
     */
    X402_FACILITATOR_PRIVATE_KEY: commaList.pipe(z.array(privateKey).min(1).max(32)).optional(),
    X402_FACILITATOR_URL: httpUrl.optional(),
    X402_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
    /** How often the background work reconciles open payments and payouts with the chains. */
    RECOVERY_INTERVAL_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
    /**
     * "off": this process only serves requests; recovery, payouts, grouping, webhooks and digests run in
     * `npm run worker` or through the cron trigger instead.
     */
    BACKGROUND_WORK: z
      .enum(["on", "off"], { error: "must be on or off" })
      .default("on")
      .transform((v) => v === "on"),
    /** Bearer secret of the cron trigger (/api/cron); when unset, the trigger answers 404 (off). */
    CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    SIWX_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
    /** MPP (method tempo, intent charge): challenges are HMAC-bound with this secret (≥ 32 chars). */
    MPP_SECRET_KEY: z.string().min(32, "must be at least 32 characters"),
    MPP_REALM: z.string().min(1).optional(),
    MPP_RECIPIENT: recipient,
    MPP_CURRENCY: address.default("0x20c000000000000000000000b9537d11c60e8b50"),
    TEMPO_RPC_URL: httpUrl,
    TEMPO_CHAIN_ID: z.coerce.number().int().positive().default(4217),
    /** Fee token for the service's own Tempo transactions (payouts, refunds); defaults to the currency. */
    TEMPO_FEE_TOKEN: address.optional(),
    /**
     * "true" when X402_PAY_TO (or MPP_RECIPIENT) is a contract wallet on purpose (a multisig, a smart account):
     * otherwise the doctor refuses a receiving address that holds code, which no key can spend from.
     */
    X402_PAY_TO_IS_CONTRACT: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("false")
      .transform((v) => v === "true"),
    MPP_RECIPIENT_IS_CONTRACT: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("false")
      .transform((v) => v === "true"),
    /** Tempo wallet that pays rewards (and refunds MPP payments when a reward cannot be paid). */
    PAYOUT_PRIVATE_KEY: privateKey,
    /** Optional: refunds x402 payments on X402_NETWORK when a reward cannot be paid. */
    X402_REFUND_PRIVATE_KEY: privateKey.optional(),
    /**
     * Ownership proofs /.well-known/x402 publishes: comma-separated EIP-191 signatures of PUBLIC_ORIGIN by
     * the receiving wallets (X402_PAY_TO, MPP_RECIPIENT), made once with `npm run ownership-proof`.
     */
    X402_OWNERSHIP_PROOFS: commaList
      .pipe(
        z
          .array(z.string().regex(/^0x[0-9a-fA-F]{130}$/, "each must be a 0x-prefixed 65-byte signature"))
          .max(8),
      )
      .optional(),
    /**
     * Optional: a secp256k1 key of its own that signs x402's offers (in every 402) and receipts (in every
     * paid answer), published as did:web at /.well-known/did.json; unset, none are signed.
     */
    OFFER_RECEIPT_PRIVATE_KEY: privateKey.optional(),
    /** Free endpoints: requests per minute per signed-in wallet, and per client address. */
    RATE_LIMIT_WALLET_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    RATE_LIMIT_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
    /** Paid endpoints: requests per minute per client address, counted before a credential is read. */
    RATE_LIMIT_PAID_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /**
     * Paid endpoints: a new paid call is refused (503 service-busy, Retry-After, nothing charged) while the
     * event loop's median lag exceeds this many ms, a process past what its CPU serves; 0 turns it off.
     * Unset: 75, and off under `next dev`, whose compiles hold the loop.
     */
    SHED_LOOP_DELAY_MS: z.coerce
      .number({ error: "must be a whole number of milliseconds, 0 to turn it off" })
      .int("must be a whole number of milliseconds, 0 to turn it off")
      .min(0, "must be 0 (off) or more")
      .max(60_000, "must be at most 60000 (a minute)")
      .optional(),
    /** "true" behind a reverse proxy that appends the client address to X-Forwarded-For. */
    TRUST_PROXY: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("false")
      .transform((v) => v === "true"),
    /** RPC endpoint the browser may call (allowed by the CSP); never a URL that embeds an API key. */
    BROWSER_RPC_URL: httpUrl.optional(),
    /** Local chain only: unlocked anvil accounts the dashboard offers as one-click test wallets. */
    DEVNET_TEST_WALLETS: commaList.pipe(z.array(address).max(20)).optional(),
    /** Bearer token that /metrics requires; when unset, /metrics answers 404 (off). */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * Bearer token for the operator routes (POST /ops/backup: the whole embedded database); when unset
     * they answer 404 (off). Longer than the metrics token: it reads every row.
     */
    OPS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
    /** One JSON line per request on stdout; unset: on in production only. */
    LOG_REQUESTS: z
      .enum(["true", "false"], { error: "must be true or false" })
      .transform((v) => v === "true")
      .optional(),
    /** /readyz warns (still ready) when the payout wallet holds less USDC.e than this, in USD. */
    READY_MIN_PAYOUT_BALANCE: z
      .string()
      .regex(USD_PATTERN, "must be a USD amount such as 1 or 0.5")
      .transform((v) => parseUsd(v) as bigint)
      .default(1_000_000n),
    /** Local devnet only: lets webhooks reach loopback receivers (127.0.0.0/8, ::1). Never in production. */
    WEBHOOKS_ALLOW_LOOPBACK: z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .transform((v) => v === "true" || v === "1")
      .default(false),
  })
  .superRefine((env, ctx) => {
    // A token contract is no wallet: what is paid to it is locked there for good.
    for (const [variable, receiver, token, tokenName] of [
      ["X402_PAY_TO", env.X402_PAY_TO, env.X402_ASSET, "X402_ASSET"],
      ["MPP_RECIPIENT", env.MPP_RECIPIENT, env.MPP_CURRENCY, "MPP_CURRENCY"],
    ] as const) {
      if (receiver.toLowerCase() === token.toLowerCase()) {
        ctx.addIssue({
          code: "custom",
          path: [variable],
          message: `is the token contract itself (${tokenName}): payments sent to it are locked there for good; set the wallet that receives the money`,
        });
      }
    }
    const signing = env.OFFER_RECEIPT_PRIVATE_KEY?.toLowerCase();
    const moneyKeys = [
      env.PAYOUT_PRIVATE_KEY,
      env.X402_REFUND_PRIVATE_KEY,
      ...(env.X402_FACILITATOR_PRIVATE_KEY ?? []),
    ].map((k) => k?.toLowerCase());
    if (signing && moneyKeys.includes(signing)) {
      ctx.addIssue({
        code: "custom",
        path: ["OFFER_RECEIPT_PRIVATE_KEY"],
        message:
          "must be a key of its own, not one that moves money (payout, refund or facilitator): it signs on every request",
      });
    }
    if (!env.X402_FACILITATOR_PRIVATE_KEY === !env.X402_FACILITATOR_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["X402_FACILITATOR_PRIVATE_KEY"],
        message:
          "set exactly one of X402_FACILITATOR_PRIVATE_KEY (in-process) or X402_FACILITATOR_URL (remote)",
      });
    }
    if (env.DEVNET_TEST_WALLETS?.length && env.X402_NETWORK !== "eip155:31337") {
      ctx.addIssue({
        code: "custom",
        path: ["DEVNET_TEST_WALLETS"],
        message: "test wallets are only offered on the local devnet (X402_NETWORK eip155:31337)",
      });
    }
    if (env.WEBHOOKS_ALLOW_LOOPBACK && env.X402_NETWORK !== "eip155:31337") {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOKS_ALLOW_LOOPBACK"],
        message:
          "loopback webhook receivers are only allowed on the local devnet (X402_NETWORK eip155:31337)",
      });
    }
  });

export type ServerEnv = z.infer<typeof serverSchema>;

/** Thrown at startup with one line per bad variable. */
export class InvalidEnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "InvalidEnvError";
  }
}

/** Validates a raw environment; exported for tests and the startup check. */
export function parseServerEnv(raw: Record<string, string | undefined>): ServerEnv {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ""));
  const result = serverSchema.safeParse(cleaned);
  if (!result.success) {
    throw new InvalidEnvError(
      result.error.issues.map((i) => {
        const name = i.path.join(".") || "(env)";
        // zod says "expected string, received undefined": an operator needs to hear the variable is unset.
        const unset = i.code === "invalid_type" && i.path.length === 1 && cleaned[name] === undefined;
        return `${name}: ${unset ? "is required and not set" : i.message}`;
      }),
    );
  }
  return result.data;
}

let cached: ServerEnv | undefined;

/** The validated configuration; read lazily so `next build` needs no secrets. */
export function env(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
