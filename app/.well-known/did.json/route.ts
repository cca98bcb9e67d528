import { AppError } from "@/lib/http/errors";
import { handle, json } from "@/lib/http/handler";
import { didDocument } from "@/lib/payment/offer-receipt";

export const dynamic = "force-dynamic";

/** did:web of this origin: the key x402 offers and receipts are signed with (lib/payment/offer-receipt.ts). */
export const GET = handle(async () => {
  const document = didDocument();
  if (!document) throw new AppError("not-found", "This deployment signs no offers or receipts.");
  return json(document, {
    headers: { "content-type": "application/did+json", "cache-control": "public, max-age=300" },
  });
});
