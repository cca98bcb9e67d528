ALTER TABLE "namespaces" ADD COLUMN "webhook_format" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "webhook_events" text[] DEFAULT '{feedback.created,feedback.resolved,feedback.status_changed,reward.paid}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "webhook_digest" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "webhook_digest_through" date;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "resent_from" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "resent_as" text;--> statement-breakpoint
CREATE INDEX "feedback_events_ns_created_idx" ON "feedback_events" USING btree ("namespace","created_at");--> statement-breakpoint
CREATE INDEX "namespaces_digest_idx" ON "namespaces" USING btree ("webhook_digest_through") WHERE "namespaces"."webhook_digest" = 'daily';--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_resent_from_uq" ON "webhook_deliveries" USING btree ("resent_from") WHERE "webhook_deliveries"."resent_from" is not null;--> statement-breakpoint
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_webhook_format_check" CHECK ("namespaces"."webhook_format" in ('standard', 'slack', 'discord'));--> statement-breakpoint
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_webhook_digest_check" CHECK ("namespaces"."webhook_digest" in ('off', 'daily'));--> statement-breakpoint
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_webhook_events_check" CHECK ("namespaces"."webhook_events" <@ '{feedback.created,feedback.resolved,feedback.status_changed,reward.paid}'::text[]);