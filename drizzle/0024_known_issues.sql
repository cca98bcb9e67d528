ALTER TABLE "feedback" ADD COLUMN "duplicate_of" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "known_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "known_issues_published" boolean DEFAULT false NOT NULL;