-- Trigram indexes serve literal substring search (ILIKE); pg_trgm is a trusted extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "feedback_events" (
	"id" text PRIMARY KEY NOT NULL,
	"feedback_id" text NOT NULL,
	"namespace" text NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"message" text,
	"details" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
UPDATE "feedback" SET "status" = 'resolved' WHERE "resolved";--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', "title"), 'A')
  || setweight(to_tsvector('english', "description"), 'B')
  || setweight(jsonb_to_tsvector('english', coalesce("steps", '[]'::jsonb), '["string"]'), 'C')
  || setweight(to_tsvector('english', coalesce("expected", '') || ' ' || coalesce("actual", '')), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "feedback_events_item_idx" ON "feedback_events" USING btree ("feedback_id","created_at","id");--> statement-breakpoint
CREATE INDEX "feedback_ns_status_created_idx" ON "feedback" USING btree ("namespace","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_search_idx" ON "feedback" USING gin ("search");--> statement-breakpoint
CREATE INDEX "feedback_title_trgm_idx" ON "feedback" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "feedback_description_trgm_idx" ON "feedback" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_status_check" CHECK ("feedback"."status" in ('open', 'acknowledged', 'needs_info', 'in_progress', 'wont_fix', 'duplicate', 'spam', 'resolved'));--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_status_resolved_check" CHECK (("feedback"."status" = 'resolved') = "feedback"."resolved");