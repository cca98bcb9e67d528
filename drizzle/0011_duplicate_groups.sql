ALTER TABLE "feedback" ADD COLUMN "group_id" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "report_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "grouped_at" timestamp (3) with time zone;--> statement-breakpoint
-- Reports filed before grouping existed stay as they are: only new ones are grouped automatically.
UPDATE "feedback" SET "grouped_at" = "created_at";--> statement-breakpoint
CREATE INDEX "feedback_group_idx" ON "feedback" USING btree ("group_id") WHERE "feedback"."group_id" is not null;--> statement-breakpoint
CREATE INDEX "feedback_ns_heads_votes_idx" ON "feedback" USING btree ("namespace","report_count" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "feedback"."group_id" is null;--> statement-breakpoint
CREATE INDEX "feedback_ungrouped_idx" ON "feedback" USING btree ("created_at") WHERE "feedback"."grouped_at" is null;