// The shared schemas the browser's forms validate with. The side-effect import must stay first.
import "./zod-jitless";

export { FEEDBACK_STATUSES } from "@/lib/schemas/feedback";
export { registerNamespaceSchema } from "@/lib/schemas/namespace";
export { RESOLVE_MESSAGE_MAX } from "@/lib/schemas/resolve";
export { WEBHOOK_FORMATS } from "@/lib/schemas/webhook";
export { WEBHOOK_EVENTS } from "@/lib/schemas/webhook-events";
