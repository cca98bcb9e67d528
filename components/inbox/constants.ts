import type { FeedbackType } from "@/lib/api-client/types";

export { SEVERITIES, TYPES } from "@/lib/api-client/inbox-filters";
export const TYPE_LABELS: Record<FeedbackType, string> = {
  bug: "Bugs",
  feature: "Features",
  feedback: "Feedback",
};
