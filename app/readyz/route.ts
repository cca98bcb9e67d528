import { handle, json } from "@/lib/http/handler";
import { readiness } from "@/lib/ops/readiness";

export const dynamic = "force-dynamic";

/**
 * 200 while this instance can serve (ready, or degraded: a protocol out, or a warning), naming what it can
 * take in `protocols`; 503 only when it can serve nothing (its database cannot be reached).
 */
export const GET = handle(
  async () => {
    const { status, checks, protocols } = await readiness();
    return json({ status, protocols, checks }, { status: status === "unavailable" ? 503 : 200 });
  },
  { logOk: false },
);
