/**
 * The bench's in-process half, run by run.ts in a child node with the react-server condition (lib imports
 * "server-only"), the devnet app's environment and BENCH_DEVNET. Arguments: `inbox,siwx`, `phases` or
 * `ceiling <options>`, then the output file. On PGlite the database is one process's: no `next start` then.
 */
import { writeFileSync } from "node:fs";
import { closeDb } from "../../lib/db/client";
import type { DevnetInfo } from "../devnet/start-devnet";
import { ceiling } from "./ceiling";
import { inbox, signedRead } from "./inbox-seed";
import { phases } from "./phases";
import { siwx } from "./siwx";

const [modes = "", ...args] = process.argv.slice(2);
const info = JSON.parse(process.env.BENCH_DEVNET ?? "null") as DevnetInfo;
const has = (mode: string) => modes.split(",").includes(mode);
try {
  let result: object;
  if (has("ceiling")) result = await ceiling(info, JSON.parse(args[0]!));
  else if (has("phases")) result = await phases(info);
  else {
    const seeded = has("inbox") ? await inbox(info) : undefined;
    const signIn = has("siwx") ? await siwx(info) : {};
    // The signed read after the sign-in pass, as it always ran: it meets a process whose verification is warm.
    result = seeded ? { ...signIn, inbox: { ...seeded.inbox, signedRead: await signedRead(info) } } : signIn;
  }
  writeFileSync(args.at(-1)!, JSON.stringify(result, null, 2));
} finally {
  await closeDb();
}
process.exit(0);
