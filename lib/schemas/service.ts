/**
 * How the service names itself wherever agents find it: the OpenAPI document's title and categories, and each
 * x402 resource's Bazaar metadata (serviceName: printable ASCII, at most 32 characters).
 */
export const SERVICE = {
  name: "Feedback service",
  tags: ["developer-tools", "feedback", "issue-tracking"],
} as const;
