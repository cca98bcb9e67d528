ALTER TABLE "feedback" ADD COLUMN "known_listed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "public_note" text;