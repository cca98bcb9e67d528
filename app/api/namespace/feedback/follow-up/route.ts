import { followUpWrite } from "@/lib/domain/feedback/follow-up";
import { offerOf } from "@/lib/payment/offer";
import { paid } from "@/lib/payment/paid-route";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The submitter answers an owner's question on its item, paying as for a submission. */
export const POST = paid(offerOf(OPERATIONS["follow-up"]), { write: followUpWrite });
