import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { exportFeedback } from "@/lib/domain/feedback/export-feedback";
import { download, handle } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** Every item of a filtered inbox view, streamed as CSV or JSON (owner only). */
export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS.export.query, queryOf(request));
  const wallet = await limitedSignIn(request);
  const { body, contentType, filename } = await exportFeedback(wallet, query);
  return download(body, contentType, filename);
});
