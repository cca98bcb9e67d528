import { AppError } from "./errors";

/** Largest request body read; context alone may be 50,000 characters of up to 4 UTF-8 bytes. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Reads a JSON body with a hard size cap, refusing before parsing anything too large. */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
    throw new AppError(
      "unsupported-media-type",
      "Send the body as JSON with Content-Type: application/json.",
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) throw new AppError("invalid-json", "The request body is empty; send a JSON object.");

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  if (text.trim() === "")
    throw new AppError("invalid-json", "The request body is empty; send a JSON object.");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid-json", "The request body is not valid JSON.");
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload-too-large", `The request body exceeds ${maxBytes} bytes.`);
}
