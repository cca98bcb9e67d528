import { isPaid, type Operation, type PaidOperation } from "./operation";
import * as owners from "./owners";
import * as submitters from "./submitters";
import * as team from "./team";
import * as webhooks from "./webhooks";

/**
 * Every operation of the API, in the order a reader meets them (MCP lists its tools in this order).
 * Routes, the OpenAPI document, llms.txt, /.well-known/x402, the MCP server and the ledger's table of
 * paid writes all map over this list: an operation, its price and its schemas are declared once.
 */
export const OPERATIONS = {
  feedback: submitters.submitFeedback,
  status: submitters.mySubmissions,
  record: submitters.getRecord,
  register: owners.registerNamespace,
  list: owners.listInbox,
  "follow-up": submitters.answerOwner,
  confirm: submitters.confirmFix,
  callback: submitters.updateCallback,
  "known-issues": submitters.knownIssues,
  triage: owners.triage,
  resolve: owners.resolveItem,
  merge: owners.merge,
  unmerge: owners.unmerge,
  labels: owners.labels,
  export: owners.exportView,
  insights: owners.insights,
  "known-issues-update": owners.knownIssuesUpdate,
  webhook: webhooks.getWebhook,
  "webhook-update": webhooks.updateWebhook,
  "webhook-rotate": webhooks.rotateSecret,
  "webhook-test": webhooks.sendTest,
  "webhook-resend": webhooks.resendDelivery,
  "webhook-deliveries": webhooks.deliveries,
  members: team.members,
  "member-add": team.addMember,
  "member-remove": team.removeMember,
  transfer: team.proposeTransfer,
  "transfer-cancel": team.cancelTransfer,
  "transfer-accept": team.acceptTransfer,
} as const;

type OperationName = keyof typeof OPERATIONS;

/** The catalogue as a list. */
export const ALL_OPERATIONS: readonly Operation[] = Object.values(OPERATIONS);

/** The paid operations, by the name their ledger rows carry. */
export const PAID_OPERATIONS = ALL_OPERATIONS.filter(isPaid) as readonly PaidOperation[];

/** Names of the paid operations: what the ledger records in `operation`. */
export type PaidOperationName = {
  [K in OperationName]: (typeof OPERATIONS)[K] extends { price: unknown } ? K : never;
}[OperationName];
