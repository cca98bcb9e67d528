import { registerNamespaceWrite } from "@/lib/domain/namespace/register-namespace";
import { paid } from "@/lib/payment/paid-route";
import { PRICES } from "@/lib/payment/prices";
import { EXAMPLES } from "@/lib/schemas/examples";
import { registerNamespaceSchema } from "@/lib/schemas/namespace";
import { registerResponseSchema } from "@/lib/schemas/responses";

/** Register a namespace: 1 USD; the paying wallet becomes its owner. */
export const POST = paid(
  {
    operation: "register",
    price: PRICES.register,
    description: "Registering a namespace",
    schema: registerNamespaceSchema,
    discovery: { ...EXAMPLES.register, output: registerResponseSchema },
  },
  { write: registerNamespaceWrite },
);
