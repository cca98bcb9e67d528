// A constant answer through bare Next.js: the floor under any route of any app on this machine, without
// a line of ours (no wrapper, no proxy, no instrumentation). Compared with our GET /healthz.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
