import { sql } from "drizzle-orm";
import { boolean, check, date, index, pgTable, text } from "drizzle-orm/pg-core";
import {
  WEBHOOK_DIGESTS,
  WEBHOOK_FORMATS,
  type WebhookDigest,
  type WebhookFormat,
} from "@/lib/schemas/webhook";
import { type SubscribableEvent, WEBHOOK_EVENTS } from "@/lib/schemas/webhook-events";
import { instant } from "./columns";

const oneOf = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

// Every event a namespace can choose: the default, and the set its choice must stay within.
const SUBSCRIBABLE = sql.raw(`'{${WEBHOOK_EVENTS.join(",")}}'::text[]`);

/** A registered namespace; its name is the key feedback is filed under, registered or not. */
export const namespaces = pgTable(
  "namespaces",
  {
    name: text("name").primaryKey(),
    description: text("description"),
    webhookUrl: text("webhook_url"),
    /** Standard Webhooks signing secret ("whsec_" + base64); the owner can read and rotate it. */
    webhookSecret: text("webhook_secret"),
    webhookFormat: text("webhook_format").$type<WebhookFormat>().notNull().default("standard"),
    /** The event types queued for the URL (webhook.test always is); filtered when an event is queued. */
    webhookEvents: text("webhook_events")
      .array()
      .$type<SubscribableEvent[]>()
      .notNull()
      .default(SUBSCRIBABLE),
    webhookDigest: text("webhook_digest").$type<WebhookDigest>().notNull().default("off"),
    /** The last UTC day a daily digest was queued for: moving it forward is the claim on that day. */
    webhookDigestThrough: date("webhook_digest_through", { mode: "string" }),
    /** Whether GET /known-issues answers for it: its open and resolved issues, titles only, to anyone. */
    knownIssuesPublished: boolean("known_issues_published").notNull().default(false),
    ownerWallet: text("owner_wallet").notNull(),
    /** The chain the owner's contract wallet paid on (its address is its own there only); null for a plain key. */
    ownerContractOn: text("owner_contract_on"),
    /**
     * A transfer the owner proposed and the wallet named has not accepted yet (checksummed), and when; a new
     * proposal replaces it, and it lapses TRANSFER_DAYS after it was made.
     */
    transferTo: text("transfer_to"),
    transferProposedAt: instant("transfer_proposed_at"),
    paymentId: text("payment_id").notNull().unique(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    index("namespaces_owner_idx").on(t.ownerWallet),
    index("namespaces_digest_idx").on(t.webhookDigestThrough).where(sql`${t.webhookDigest} = 'daily'`),
    check("namespaces_webhook_format_check", sql`${t.webhookFormat} in (${oneOf(WEBHOOK_FORMATS)})`),
    check("namespaces_webhook_digest_check", sql`${t.webhookDigest} in (${oneOf(WEBHOOK_DIGESTS)})`),
    check("namespaces_webhook_events_check", sql`${t.webhookEvents} <@ ${SUBSCRIBABLE}`),
    check("namespaces_transfer_check", sql`(${t.transferTo} is null) = (${t.transferProposedAt} is null)`),
  ],
);
