import { AppError } from "./errors";

/** Largest request body read; context alone may be 50,000 characters of up to 4 UTF-8 bytes. */
export const MAX_BODY_BYTES = 256 * 1024;

type ReadOptions = {
  maxBytes?: number;
  /**
   * Called for a request with no body at all (zero bytes, whatever its headers say): how discovery
   * tools ask a paid route for its price. It may throw the answer; if it returns, the empty body is
   * refused as usual.
   */
  whenEmpty?: () => Promise<void>;
};

/** Reads a JSON body with a hard size cap, refusing before parsing anything too large. */
export async function readJsonBody(request: Request, options: ReadOptions = {}): Promise<unknown> {
  const { maxBytes = MAX_BODY_BYTES, whenEmpty } = options;
  const type = request.headers.get("content-type") ?? "";
  const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(type.trim());
  // Without a probe to answer, the media type is refused before a byte is read.
  if (!isJson && !whenEmpty) throw notJson();
  const bytes = await readCapped(request, maxBytes);
  if (bytes.byteLength === 0) await whenEmpty?.();
  if (!isJson) throw notJson();
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (text.trim() === "")
    throw new AppError("invalid-json", "The request body is empty; send a JSON object.");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid-json", "The request body is not valid JSON.");
  }
}

/** The body's bytes, refused as soon as they pass the cap (or when the declared length already does). */
async function readCapped(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

function notJson(): AppError {
  return new AppError("unsupported-media-type", "Send the body as JSON with Content-Type: application/json.");
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload-too-large", `The request body exceeds ${maxBytes} bytes.`);
}
