/**
 * The baselines' store (scripts/bench/baseline and scripts/bench/mpp-baseline): an in-memory array of
 * the submitted items, with the least checking a route would do. No ledger, no database.
 */
import { randomBytes } from "node:crypto";

type Item = {
  id: string;
  namespace: string;
  type: string;
  title: string;
  description: string;
  createdAt: string;
};

const items: Item[] = [];

/** Stores a request's JSON body as an item: what to answer with, or null when the body is no item. */
export async function storeItem(request: Request) {
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || typeof body.namespace !== "string" || typeof body.title !== "string") return null;
  const item: Item = {
    id: `fb_${randomBytes(16).toString("base64url")}`,
    namespace: body.namespace,
    type: String(body.type ?? "feedback"),
    title: body.title,
    description: String(body.description ?? ""),
    createdAt: new Date().toISOString(),
  };
  items.push(item);
  return { id: item.id, namespace: item.namespace, createdAt: item.createdAt };
}

/** How many items are stored: the baselines' readiness answer. */
export const storedCount = () => items.length;
