import { formatUsd } from "@/lib/money";
import { EXAMPLES } from "../examples";
import { insightsQuerySchema, insightsResponseSchema } from "../insights";
import { knownIssuesSettingsSchema, updateKnownIssuesSchema } from "../known-issues";
import { exportQuerySchema, listQuerySchema } from "../list";
import { registerNamespaceSchema } from "../namespace";
import { MAX_REWARD_MICRO_USD, type ResolveFeedbackInput, resolveFeedbackSchema, rewardOf } from "../resolve";
import {
  changeLabelsResponseSchema,
  changeStatusResponseSchema,
  exportRecordsSchema,
  listResponseSchema,
  mergeResponseSchema,
  registerResponseSchema,
  resolveResponseSchema,
  unmergeResponseSchema,
} from "../responses";
import { changeLabelsSchema, changeStatusSchema, mergeSchema, unmergeSchema } from "../triage";
import type { Operation, PaidOperation } from "./operation";

/** What a company does: register a name, read and triage its inbox, resolve and reward. */

export const registerNamespace = {
  name: "register",
  operationId: "namespace_register",
  method: "POST",
  path: "/api/namespace/register",
  tags: ["Owners"],
  summary: "Register a namespace",
  description:
    "The paying wallet becomes the owner and claims every item already sent to the name (existingFeedbackLinked).",
  access: "payment",
  price: 1_000_000n,
  maxPrice: 1_000_000n,
  payFor: "Registering a namespace",
  body: registerNamespaceSchema,
  output: { component: "RegisterResponse", schema: registerResponseSchema },
  example: EXAMPLES.register,
  tool: {
    name: "register_namespace",
    title: "Register a namespace",
    description:
      "Register a namespace name; the paying wallet becomes its owner and receives every item already sent to the name.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
} as const satisfies PaidOperation;

export const listInbox = {
  name: "list",
  operationId: "namespace_list",
  method: "GET",
  path: "/api/namespace/list",
  tags: ["Owners"],
  summary: "The owner's inbox, newest first",
  access: "sign-in",
  permission: "read",
  query: listQuerySchema,
  output: { component: "ListResponse", schema: listResponseSchema },
  example: EXAMPLES.list,
  errors: { "403": "Not the namespace owner", "404": "No such namespace" },
  tool: {
    name: "list_feedback",
    title: "Owner's inbox",
    description:
      "The owner's inbox of a namespace, newest first or by relevance to a search, filtered by type, severity, resolved or status; q searches the words of every text field (or literal text), and each item found carries highlights. For the owner only.",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
} as const satisfies Operation;

export const triage = {
  name: "triage",
  operationId: "namespace_feedback_status",
  method: "POST",
  path: "/api/namespace/feedback/status",
  tags: ["Owners"],
  summary: "Triage: set one status on one or many items",
  description:
    "Statuses: open, acknowledged, needs_info, in_progress, wont_fix, duplicate, spam, resolved. All named items change or none does, and no other item does; an item already in the status is left as it is. resolved is the contract's resolution without a reward (message stored, feedback.resolved sent); any other status on a resolved item reopens it. The message is shown to the submitter in status and in the item's history: with needs_info it is required, as the question the submitter answers (400 naming message without it).",
  access: "sign-in",
  permission: "triage",
  body: changeStatusSchema,
  output: { component: "ChangeStatusResponse", schema: changeStatusResponseSchema },
  example: EXAMPLES.changeStatus,
  errors: {
    "404": "No such namespace, or an item that is not in it (errors names each)",
    "409": "An item is held by a rewarded resolve being paid; retry after it ends",
  },
  tool: {
    name: "set_feedback_status",
    title: "Triage items",
    description:
      "Set one status (open, acknowledged, needs_info, in_progress, wont_fix, duplicate, spam, resolved) and an optional message for the submitters on up to 100 items of a namespace you own, all or none. needs_info requires the message: it is the question the submitter answers. For the owner only.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
} as const satisfies Operation;

export const resolveItem = {
  name: "resolve",
  operationId: "namespace_resolve",
  method: "POST",
  path: "/api/namespace/resolve",
  tags: ["Owners"],
  summary: "Resolve an item, optionally with a USDC reward (the price is rewardAmount)",
  description:
    'The owner, or a member: without a reward (omitted or "0") the call is free and needs a sign-in of the owner, an admin or a triager; with one, only the owner or an admin, paying the reward from its own wallet with either protocol (anyone else is refused before any charge), forwarded to the submitter on Tempo. message is for the item\'s own reporter; publicNote for the reporters who said "me too" and the published known issues. alsoResolve names other items to resolve with the same message, never rewarded; no other item changes.',
  access: "payment-or-sign-in",
  permission: "triage",
  // A body-less probe is quoted the largest reward; a body without a reward buys nothing (free).
  price: (input: ResolveFeedbackInput | null) =>
    input === null ? MAX_REWARD_MICRO_USD : rewardOf(input) || null,
  maxPrice: MAX_REWARD_MICRO_USD,
  payFor: (price: bigint, input: ResolveFeedbackInput | null) =>
    input === null
      ? `Resolving with a reward: the price is rewardAmount, up to ${formatUsd(MAX_REWARD_MICRO_USD)} USD`
      : `Resolving with a ${formatUsd(price)} USD reward`,
  signIn: "optional",
  body: resolveFeedbackSchema,
  output: { component: "ResolveResponse", schema: resolveResponseSchema },
  example: EXAMPLES.resolve,
  errors: {
    "401": "The sign-in proof does not verify",
    "403": "Not the namespace owner",
    "404": "No such item",
    "502": "The reward could not be paid; the payment was refunded",
  },
  tool: {
    name: "resolve_feedback",
    title: "Resolve an item",
    description:
      "Resolve an item of a namespace you own, with a message. Without rewardAmount it is free and needs the owner's sign-in. With rewardAmount the call costs the reward, which the service forwards to the submitter on Tempo.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
} as const satisfies PaidOperation<ResolveFeedbackInput>;

const MERGE_RULES =
  "The service suggests a new report into an open group it is alike (groupKind: suggested); a suggestion changes nothing else. The group's head counts its reports as votes (reportCount). An action changes only the items it names: resolve's alsoResolve names the other reports to resolve with it.";

export const merge = {
  name: "merge",
  operationId: "namespace_feedback_merge",
  method: "POST",
  path: "/api/namespace/feedback/merge",
  tags: ["Owners"],
  summary: "File reports under one group of duplicates",
  description: `Each named report, and every report already grouped under it, joins the group of into (or of the group into belongs to), merged (groupKind: merged); merging a suggested report confirms it. All or none. ${MERGE_RULES}`,
  access: "sign-in",
  permission: "triage",
  body: mergeSchema,
  output: { component: "MergeResponse", schema: mergeResponseSchema },
  example: EXAMPLES.merge,
  errors: { "404": "No such namespace, or a report that is not in it (errors names each)" },
} as const satisfies Operation;

export const unmerge = {
  name: "unmerge",
  operationId: "namespace_feedback_unmerge",
  method: "POST",
  path: "/api/namespace/feedback/unmerge",
  tags: ["Owners"],
  summary: "Take reports out of their groups (a suggestion the owner finds not alike, or a merge undone)",
  access: "sign-in",
  permission: "triage",
  body: unmergeSchema,
  output: { component: "UnmergeResponse", schema: unmergeResponseSchema },
  example: EXAMPLES.unmerge,
  errors: { "404": "No such namespace, or a report that is not in it (errors names each)" },
} as const satisfies Operation;

export const labels = {
  name: "labels",
  operationId: "namespace_feedback_labels",
  method: "POST",
  path: "/api/namespace/feedback/labels",
  tags: ["Owners"],
  summary: "Add and remove labels on one or many items",
  description:
    "Labels are the owner's own words (1 to 30 characters, no commas), at most 10 per item. All named items change or none does; each change is written to the item's history. list filters by one with label=.",
  access: "sign-in",
  permission: "triage",
  body: changeLabelsSchema,
  output: { component: "LabelsResponse", schema: changeLabelsResponseSchema },
  example: EXAMPLES.labels,
  errors: { "404": "No such namespace, or an item that is not in it (errors names each)" },
} as const satisfies Operation;

export const exportView = {
  name: "export",
  operationId: "namespace_export",
  method: "GET",
  path: "/api/namespace/export",
  tags: ["Owners"],
  summary: "Export a filtered inbox view as CSV or JSON, streamed",
  access: "sign-in",
  permission: "read",
  query: exportQuerySchema,
  output: {
    component: "ExportRecords",
    schema: exportRecordsSchema,
    description: "The export, as an attachment",
    csvExample: EXAMPLES.export.csv,
  },
  example: EXAMPLES.export,
} as const satisfies Operation;

export const insights = {
  name: "insights",
  operationId: "namespace_insights",
  method: "GET",
  path: "/api/namespace/insights",
  tags: ["Owners"],
  summary: "Insights: items over time, open and resolved, response times, reporters, rewards",
  description:
    "Whole UTC days: the last days (default 30, at most 365) up to to (default today), or from to to. Per bucket (day, or ISO week from Monday), the items filed by type and the items resolved. The medians, in seconds (0 over no items, with count saying how many): to the owner's first action (a status, merge or label change) over the items filed in the period, and to resolution over the items resolved in it. The ten wallets that filed the most items in the period, and the rewards whose transfer landed in it, in micro-USD and USD. totals is the whole namespace now.",
  access: "sign-in",
  permission: "read",
  query: insightsQuerySchema,
  output: { component: "Insights", schema: insightsResponseSchema },
  example: EXAMPLES.insights,
} as const satisfies Operation;

export const knownIssuesUpdate = {
  name: "known-issues-update",
  operationId: "namespace_known_issues_update",
  method: "PATCH",
  path: "/api/namespace/known-issues",
  tags: ["Owners"],
  summary: "Publish or withdraw the known issues, hide or show items on them",
  description:
    "published: true publishes the namespace's known issues (off by default: nothing is shown until then) as the inbox stands, false withdraws the whole list at once (the owner or an admin). hide and unhide name items of the namespace (at most 100 each, all or none) to leave out of the list, or list (a triager or above): a report filed after publishing is listed only once the owner or its team has seen it (triaged, merged into, or unhidden). What is published of an issue: its id, title, type, status, report count, resolution time and public note only.",
  access: "sign-in",
  permission: "triage",
  body: updateKnownIssuesSchema,
  output: { component: "KnownIssuesSettings", schema: knownIssuesSettingsSchema },
  example: EXAMPLES.knownIssuesUpdate,
} as const satisfies Operation;
