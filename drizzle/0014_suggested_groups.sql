DROP INDEX "feedback_group_idx";--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "group_kind" text;--> statement-breakpoint
-- A report the owner filed into its group by hand is merged; one the service grouped is only a suggestion.
UPDATE "feedback" f SET "group_kind" = CASE WHEN EXISTS (
  SELECT 1 FROM "feedback_events" e
  WHERE e."feedback_id" = f."id" AND e."kind" = 'merged' AND e."actor" <> 'service'
) THEN 'merged' ELSE 'suggested' END
WHERE f."group_id" IS NOT NULL;--> statement-breakpoint
UPDATE "feedback_events" SET "kind" = 'suggested' WHERE "kind" = 'merged' AND "actor" = 'service';--> statement-breakpoint
CREATE INDEX "feedback_group_idx" ON "feedback" USING btree ("group_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "feedback"."group_id" is not null;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_group_kind_check" CHECK ("feedback"."group_kind" in ('merged', 'suggested') and "feedback"."group_id" is not null or "feedback"."group_kind" is null and "feedback"."group_id" is null);