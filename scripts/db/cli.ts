import nextEnv from "@next/env";

/** Thrown for a refusal the operator can act on: printed as one line, exit code 1, no stack. */
export class Refusal extends Error {}

/**
 * The configuration `next start` would run with (the process environment, then the .env files, through
 * Next's own loader, production mode): the commands must find the database the service uses.
 */
export function loadServiceEnv(): { databaseUrl?: string; pgliteDir: string; opsToken?: string } {
  // A CommonJS bundle whose exports Node cannot list: its named exports exist only on the default.
  nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    pgliteDir: process.env.PGLITE_DIR || ".data/pglite",
    opsToken: process.env.OPS_TOKEN || undefined,
  };
}

/** `--name value` options and `--flag` switches, the rest positional. */
export function parseArgs(argv: string[], options: string[], flags: string[]) {
  const values: Record<string, string> = {};
  const set = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.replace(/^--/, "");
    if (arg.startsWith("--") && options.includes(name) && argv[i + 1] !== undefined)
      values[name] = argv[++i]!;
    else if (arg.startsWith("--") && flags.includes(name)) set.add(name);
    else if (arg.startsWith("--")) throw new Refusal(`unknown option ${arg}`);
    else positional.push(arg);
  }
  return { values, flags: set, positional };
}

/** Runs a command: a Refusal is one line and exit 1; anything else keeps its stack. */
export async function runCommand(main: () => Promise<number>): Promise<never> {
  try {
    process.exit(await main());
  } catch (error) {
    if (error instanceof Refusal) console.error(`Refused: ${error.message}`);
    else console.error(error);
    process.exit(1);
  }
}
