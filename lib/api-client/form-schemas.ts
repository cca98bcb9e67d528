// The shared schemas the browser's forms validate with. The side-effect import must stay first.
import "./zod-jitless";

export { registerNamespaceSchema } from "@/lib/schemas/namespace";
export { RESOLVE_MESSAGE_MAX } from "@/lib/schemas/resolve";
