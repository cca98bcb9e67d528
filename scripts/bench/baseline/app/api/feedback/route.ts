// The baseline's paid route: the x402 SDK's Next.js wrapper around an in-memory store (handler.ts).
export { GET, POST } from "../../../handler";
