DROP INDEX "payments_lock_key_uq";--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "resolving_payment_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_tx_ref" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_active_lock_key_uq" ON "payments" USING btree ("lock_key") WHERE "payments"."lock_key" is not null and "payments"."status" not in ('failed', 'refunded');