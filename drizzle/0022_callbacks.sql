ALTER TABLE "feedback" ADD COLUMN "callback_url" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "callback_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "callback_for" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_callback_check" CHECK (("feedback"."callback_url" is null) = ("feedback"."callback_secret" is null));