import { describe, expect } from "vitest";
import { getFeedback } from "@/lib/domain/feedback/get-feedback";
import { listSubmissions } from "@/lib/domain/feedback/list-submissions";
import { statusQuerySchema } from "@/lib/schemas/list";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import { listOwnedNamespaces } from "./list-owned-namespaces";
import { requireAccess } from "./require-access";

// One address on two chains: a contract wallet is an identity on the chain it proved on only, so the
// same address deployed on another chain (with other owners) is a stranger; a plain key is one everywhere.
const wallet = "0x00000000000000000000000000000000000000c1" as const;
const [BASE, TEMPO] = ["eip155:8453", "eip155:4217"];
const on = (contractOn: string | null) => ({ address: wallet, contractOn });

describe("a contract wallet's records", () => {
  rolledBack("belong to it on the chain it paid on, not to the same address elsewhere", async (db) => {
    const ns = ref("cw");
    await insertNamespace(db, { name: ns, ownerWallet: wallet, ownerContractOn: BASE });
    const item = await insertItem(db, { namespace: ns, submitterWallet: wallet, submitterContractOn: BASE });
    await expect(requireAccess(on(BASE), ns, "ownership", db)).resolves.toMatchObject({ name: ns });
    await expect(requireAccess(on(TEMPO), ns, "ownership", db)).rejects.toMatchObject({ code: "not-owner" });
    await expect(getFeedback(on(TEMPO), item, db)).rejects.toMatchObject({ code: "forbidden" });
    expect((await getFeedback(on(BASE), item, db)).id).toBe(item);
    const status = (who: ReturnType<typeof on>) =>
      listSubmissions(who, statusQuerySchema.parse({ namespace: ns }), db);
    expect((await status(on(BASE))).feedback.map((f) => f.id)).toEqual([item]);
    expect((await status(on(TEMPO))).feedback).toEqual([]);
    expect((await listOwnedNamespaces(on(TEMPO), db)).namespaces.map((n) => n.namespace)).not.toContain(ns);
    expect((await listOwnedNamespaces(on(BASE), db)).namespaces.map((n) => n.namespace)).toContain(ns);
  });

  rolledBack("a plain key's records are its own whatever chain it signs in on", async (db) => {
    const ns = ref("pk");
    await insertNamespace(db, { name: ns, ownerWallet: wallet });
    for (const who of [on(null), on(BASE), on(TEMPO)]) {
      await expect(requireAccess(who, ns, "ownership", db)).resolves.toMatchObject({ name: ns });
    }
  });
});
