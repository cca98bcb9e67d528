/**
 * `npm run doctor`: checks the configuration `next start` would run with against the chains and the
 * database, one line per item, and exits 1 when any item is an error. Sends no transaction.
 */
import nextEnv from "@next/env";
import { formatItem, runDoctor } from "../lib/ops/doctor";

// The .env files `next start` reads (Next's own loader, production mode); the shell's variables win.
// A CommonJS bundle whose exports Node cannot list: its named exports exist only on the default.
const { loadedEnvFiles } = nextEnv.loadEnvConfig(process.cwd(), false, {
  info: () => {},
  error: console.error,
});
const files = loadedEnvFiles.map((file) => file.path).join(", ");
console.log(`Configuration: the process environment${files ? ` and ${files}` : " (no .env file)"}.`);

const items = await runDoctor(process.env);
for (const item of items) console.log(formatItem(item));
const count = (status: string) => items.filter((item) => item.status === status).length;
const errors = count("error");
console.log(`\n${errors} error(s), ${count("warn")} warning(s), ${count("ok")} ok.`);
// Kept-alive RPC sockets would hold the process open after the answer: leave now.
process.exit(errors > 0 ? 1 : 0);
