ALTER TABLE "webhook_deliveries" ADD COLUMN "action_id" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "folded_into" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "sent_body" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "last_response_excerpt" text;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_action_idx" ON "webhook_deliveries" USING btree ("namespace","action_id") WHERE "webhook_deliveries"."action_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_folded_into_idx" ON "webhook_deliveries" USING btree ("folded_into") WHERE "webhook_deliveries"."folded_into" is not null;