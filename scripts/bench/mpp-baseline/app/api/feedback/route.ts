// The MPP baseline's only route: mppx's own Next.js handler around an in-memory store (handler.ts).
export { GET, POST } from "../../../handler";
