ALTER TABLE "feedback" ADD COLUMN "confirmation" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "confirmation_note" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "confirmed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "confirmed_resolution_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_confirmation_check" CHECK ("feedback"."confirmation" in ('fixed', 'not_fixed') and "feedback"."confirmed_at" is not null and "feedback"."confirmed_resolution_at" is not null or "feedback"."confirmation" is null and "feedback"."confirmed_at" is null and "feedback"."confirmed_resolution_at" is null);