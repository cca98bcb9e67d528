import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { isHolder } from "@/lib/auth/identity";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { jsonb, param, prepared } from "@/lib/db/prepared";
import { feedback, namespaces } from "@/lib/db/schema";
import { afterAnswer } from "@/lib/http/after-answer";
import { describeError } from "@/lib/http/log";
import { boundedQueue } from "@/lib/ops/bounded-queue";
import { fulfilment, NotAwaitingFulfilment } from "@/lib/payment/ledger";
import type { Caller, PaidContext, PaidWrite } from "@/lib/payment/types";
import { type SubmitFeedbackInput, submitFeedbackSchema } from "@/lib/schemas/feedback";
import { identitySchema } from "@/lib/schemas/session";
import { webhookEvent, webhookOutboxCte } from "@/lib/webhooks/outbox";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { assertCallbackAllowed } from "@/lib/webhooks/url-check";
import { groupReport } from "./groups";
import { assertKnownIssue } from "./known-issues";
import { targetsOf } from "./targets";

/**
 * The answer to a paid submission, stored in the ledger with it (so the same request sent again gets it,
 * callbackSecret included: only its payer can).
 */
export type SubmitFeedbackAnswer = {
  id: string;
  namespace: string;
  registered: boolean;
  createdAt: string;
  callbackSecret?: string;
  /** With duplicateOf: the known issue the report joined, or null when it could no longer join one. */
  joinedKnownIssue?: string | null;
};

/**
 * A submission as its ledger row keeps it: the item, and the wallet its sign-in proof named (checked
 * before payment), if it sent one. Recovery parses the stored input with this again.
 */
export const submissionSchema = submitFeedbackSchema.extend({
  signedIn: identitySchema.pick({ address: true, did: true, contractOn: true }).nullable().default(null),
});
export type Submission = z.output<typeof submissionSchema>;

/** 128 random bits: ids cannot be guessed or enumerated. */
function newFeedbackId(): string {
  return `fb_${randomBytes(16).toString("base64url")}`;
}

/**
 * The store as one prepared statement: the ledger row becomes fulfilled, the item is stored bound to it, and
 * `feedback.created` joins the outbox if the namespace has a webhook. A payment not awaiting fulfilment
 * leaves the item's NOT NULL `payment_id` empty, which refuses the whole statement (item, ledger, outbox).
 */
const storeStatement = prepared((db) => {
  // A "me too" on a published known issue (checked before the charge) joins its group as it is stored,
  // and counts as one more report of it: the group's head, should the issue have been merged since. The
  // check is made again here: if the owner withdrew the list, or hid, resolved, marked as spam or merged the
  // issue into one that is not listed meanwhile, the paid report is stored as a report of its own (the
  // answer's joinedKnownIssue is null), as a paid follow-up is stored whatever the owner did meanwhile.
  const joined = db.$with("joined", { id: sql<string>`id`.as("id") }).as(sql`update ${feedback} h
    set report_count = h.report_count + 1
    where h.id = (select coalesce(k.group_id, k.id) from ${feedback} k
      where k.id = ${param("duplicateOf")}::text and k.namespace = ${param("namespace")}::text)
      and h.group_id is null and h.status not in ('spam', 'resolved')
      and not h.known_hidden and h.known_listed
      and exists (select 1 from ${namespaces} n
        where n.name = ${param("namespace")}::text and n.known_issues_published)
    returning h.id`);
  const answer = sql`jsonb_build_object(
    'id', ${param("id")}::text,
    'namespace', ${param("namespace")}::text,
    'registered', exists (select 1 from ${namespaces} where ${namespaces.name} = ${param("namespace")}::text),
    'createdAt', ${param("createdAt")}::text) || ${param("callbackAnswer")}::jsonb
    || case when ${param("duplicateOf")}::text is null then '{}'::jsonb
      else jsonb_build_object('joinedKnownIssue', (select ${joined.id} from ${joined})) end`;
  const paid = db
    .$with("paid")
    .as(fulfilment(db, { paymentId: param("paymentId"), txRef: param("txRef") }, param("id"), answer));
  const hook = webhookOutboxCte(db, param("namespace"), {
    messageId: param("messageId"),
    type: "feedback.created",
    payload: param("event"),
  });
  return db
    .with(joined, paid, hook)
    .insert(feedback)
    .values({
      id: param("id"),
      namespace: param("namespace"),
      type: param("type"),
      title: param("title"),
      description: param("description"),
      severity: param("severity"),
      steps: param("steps"),
      expected: param("expected"),
      actual: param("actual"),
      context: param("context"),
      metadata: param("metadata"),
      targets: param("targets"),
      verified: param("verified"),
      submitterDid: param("submitterDid"),
      submitterWallet: param("submitterWallet"),
      submitterContractOn: param("submitterContractOn"),
      callbackUrl: param("callbackUrl"),
      callbackSecret: param("callbackSecret"),
      duplicateOf: sql<string>`(select ${param("duplicateOf")}::text from ${joined})`,
      groupId: sql<string>`(select ${joined.id} from ${joined})`,
      groupKind: sql<"merged">`(select 'merged' from ${joined})`,
      groupedAt: sql<Date>`(select now() from ${joined})`,
      paymentId: sql<string>`(select ${paid.id} from ${paid})`,
      createdAt: param("createdAt"),
    })
    .returning({ response: sql<SubmitFeedbackAnswer>`(select ${paid.response} from ${paid})` })
    .prepare("submit_feedback");
});

/**
 * Stores a paid-for feedback item; `verified` only when the sign-in proof is for the paying wallet.
 * It is one prepared statement, so one round trip and atomic on its own (see storeStatement). This is
 * the hot path of the service, so nothing else may be added to it.
 */
export async function submitFeedback(input: Submission, ctx: PaidContext) {
  const { signedIn } = input;
  const id = newFeedbackId();
  const createdAt = new Date().toISOString();
  const verified = signedIn !== null && isHolder(signedIn, ctx.payer, ctx.payerContractOn);
  const callbackSecret = input.callbackUrl === null ? null : newWebhookSecret();
  const event = webhookEvent("feedback.created", {
    id,
    namespace: input.namespace,
    type: input.type,
    title: input.title,
    severity: input.severity ?? null,
    createdAt,
  });
  let stored: { response: SubmitFeedbackAnswer } | undefined;
  try {
    [stored] = await storeStatement(ctx.db).execute({
      paymentId: ctx.paymentId,
      txRef: ctx.txRef,
      messageId: event.messageId,
      event: event.payload,
      id,
      namespace: input.namespace,
      type: input.type,
      title: input.title,
      description: input.description,
      severity: input.severity ?? null,
      steps: jsonb(input.steps),
      expected: input.expected ?? null,
      actual: input.actual ?? null,
      context: input.context ?? null,
      metadata: jsonb(input.metadata),
      targets: jsonb(targetsOf(input.namespace, input.metadata)),
      verified,
      submitterDid: verified && signedIn ? signedIn.did : null,
      submitterWallet: ctx.payer,
      submitterContractOn: ctx.payerContractOn,
      callbackUrl: input.callbackUrl,
      callbackSecret,
      duplicateOf: input.duplicateOf,
      callbackAnswer: jsonb(callbackSecret === null ? {} : { callbackSecret }),
      createdAt,
    });
  } catch (error) {
    if (sqlStateOf(error) === SQLSTATE.notNullViolation) throw new NotAwaitingFulfilment(ctx.paymentId);
    throw error;
  }
  if (!stored) throw new NotAwaitingFulfilment(ctx.paymentId);
  return { resultId: id, body: stored.response };
}

/**
 * The paid write of a submission (POST /feedback): stored with its payment in one statement, and
 * `verified` when the caller's sign-in proof is for the paying wallet. A callback URL the address
 * policy refuses is a 400 naming `callbackUrl` before any charge.
 */
export async function submitFeedbackWrite(
  input: SubmitFeedbackInput,
  caller: Caller,
): Promise<PaidWrite<SubmitFeedbackAnswer>> {
  await assertCallbackAllowed(input.callbackUrl, { resolve: caller.paying });
  await assertKnownIssue(input.namespace, input.duplicateOf);
  const submission = { ...input, signedIn: caller.signedIn };
  return { input: submission, commit: (ctx) => submitFeedback(submission, ctx) };
}

/**
 * Groupings after answers: two at a time per process, a thousand waiting. A block settles many payments
 * at once, and their groupings (the heaviest statement after a paid write) each taking a connection would
 * leave the paid writes behind them waiting for the pool. A report offered past the queue's room is
 * grouped by the recovery loop's sweep instead.
 */
// On globalThis: Next.js bundles each route apart (the API's and MCP's), and the bound is the process's.
const store = globalThis as unknown as { __feedbackGroupings?: ReturnType<typeof boundedQueue> };
store.__feedbackGroupings ??= boundedQueue({ atOnce: 2, waiting: 1000 });
const groupings = store.__feedbackGroupings;

/**
 * After a submission is stored: compared with the namespace's open groups of duplicates once the
 * answer has gone out, so the answer never waits for it. A report missed here (a crash, a full queue)
 * is grouped by the recovery loop's sweep (groupPending).
 */
export async function finishSubmission(stored: { resultId: string; body: SubmitFeedbackAnswer }) {
  afterAnswer(async () => {
    groupings.offer(() =>
      groupReport(stored.resultId).catch((error: unknown) => {
        console.error(`[group] ${stored.resultId}: ${describeError(error)}`);
      }),
    );
  });
  return stored.body;
}
