CREATE TABLE "feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"severity" text,
	"steps" jsonb,
	"expected" text,
	"actual" text,
	"context" text,
	"metadata" jsonb,
	"targets" jsonb NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"submitter_did" text,
	"submitter_wallet" text,
	"resolved" boolean DEFAULT false NOT NULL,
	"resolve_message" text,
	"resolved_at" timestamp (3) with time zone,
	"resolved_by" text,
	"reward_amount" text,
	"reward_tx_hash" text,
	"payment_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "feedback_payment_id_unique" UNIQUE("payment_id")
);
--> statement-breakpoint
CREATE TABLE "namespaces" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text,
	"webhook_url" text,
	"owner_wallet" text NOT NULL,
	"payment_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "namespaces_payment_id_unique" UNIQUE("payment_id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"protocol" text NOT NULL,
	"payment_key" text NOT NULL,
	"operation" text NOT NULL,
	"lock_key" text,
	"status" text NOT NULL,
	"payer" text NOT NULL,
	"amount" text NOT NULL,
	"asset" text NOT NULL,
	"network" text NOT NULL,
	"pay_to" text NOT NULL,
	"tx_ref" text,
	"error" text,
	"request" jsonb NOT NULL,
	"result_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "siwx_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"consumed_at" timestamp (3) with time zone,
	"consumed_by" text
);
--> statement-breakpoint
CREATE INDEX "feedback_ns_created_idx" ON "feedback" USING btree ("namespace","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_ns_type_created_idx" ON "feedback" USING btree ("namespace","type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_ns_severity_created_idx" ON "feedback" USING btree ("namespace","severity","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_submitter_created_idx" ON "feedback" USING btree ("submitter_wallet","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "feedback"."submitter_wallet" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_payment_key_uq" ON "payments" USING btree ("payment_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_lock_key_uq" ON "payments" USING btree ("lock_key") WHERE "payments"."lock_key" is not null and "payments"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "siwx_nonces_expires_idx" ON "siwx_nonces" USING btree ("expires_at");