import { handle, json } from "@/lib/http/handler";
import { readiness } from "@/lib/ops/readiness";

export const dynamic = "force-dynamic";

/** 200 while every check passes (a low payout balance is a warning), 503 when one fails. */
export const GET = handle(
  async () => {
    const { status, checks } = await readiness();
    return json({ status, checks }, { status: status === "unavailable" ? 503 : 200 });
  },
  { logOk: false },
);
