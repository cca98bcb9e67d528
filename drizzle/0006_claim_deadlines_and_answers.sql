ALTER TABLE "payouts" DROP CONSTRAINT "payouts_feedback_id_unique";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "response" jsonb;--> statement-breakpoint
CREATE INDEX "feedback_resolving_payment_idx" ON "feedback" USING btree ("resolving_payment_id") WHERE "feedback"."resolving_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_open_created_idx" ON "payments" USING btree ("created_at","id") WHERE "payments"."status" in ('claimed', 'settled');--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_active_feedback_uq" ON "payouts" USING btree ("feedback_id") WHERE "payouts"."status" <> 'refunded';