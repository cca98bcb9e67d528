ALTER TABLE "feedback" ADD COLUMN "labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "feedback_labels_idx" ON "feedback" USING gin ("labels");--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_labels_check" CHECK (cardinality("feedback"."labels") <= 10);