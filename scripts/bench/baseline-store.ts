/** The baselines' store (scripts/bench/baseline, mpp-baseline): the submitted items in memory, no ledger. */
import { randomBytes } from "node:crypto";
import { NextResponse } from "next/server";

const items: Array<{
  id: string;
  namespace: string;
  type: string;
  title: string;
  description: string;
  createdAt: string;
}> = [];

/** Stores a request's JSON body as an item and answers with it (`status`), or 400 when the body is no item. */
export async function storeItem(request: Request, status: number): Promise<NextResponse<unknown>> {
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || typeof body.namespace !== "string" || typeof body.title !== "string") {
    return NextResponse.json({ error: "invalid body" }, { status: 400 });
  }
  const [id, createdAt] = [`fb_${randomBytes(16).toString("base64url")}`, new Date().toISOString()];
  const { namespace, title } = body;
  items.push({
    id,
    namespace,
    type: String(body.type ?? "feedback"),
    title,
    description: String(body.description ?? ""),
    createdAt,
  });
  return NextResponse.json({ id, namespace, createdAt }, { status });
}

/** How many items are stored: the baselines' readiness answer. */
export const GET = () => NextResponse.json({ items: items.length });

export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}
