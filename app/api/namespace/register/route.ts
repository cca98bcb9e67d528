import { registerNamespaceWrite } from "@/lib/domain/namespace/register-namespace";
import { offerOf } from "@/lib/payment/offer";
import { paid } from "@/lib/payment/paid-route";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** Register a namespace; the paying wallet becomes its owner. */
export const POST = paid(offerOf(OPERATIONS.register), { write: registerNamespaceWrite });
