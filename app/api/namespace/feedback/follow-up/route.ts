import { followUpWrite } from "@/lib/domain/feedback/follow-up";
import { paid } from "@/lib/payment/paid-route";
import { PRICES } from "@/lib/payment/prices";
import { EXAMPLES } from "@/lib/schemas/examples";
import { followUpSchema } from "@/lib/schemas/follow-up";
import { followUpResponseSchema } from "@/lib/schemas/responses";

/** The submitter answers an owner's question on its item: 0.01 USD, like a submission. */
export const POST = paid(
  {
    operation: "follow-up",
    price: PRICES.followUp,
    description: "Answering the owner's question",
    schema: followUpSchema,
    discovery: { ...EXAMPLES.followUp, output: followUpResponseSchema },
  },
  { write: followUpWrite },
);
