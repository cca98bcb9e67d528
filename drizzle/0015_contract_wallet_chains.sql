ALTER TABLE "feedback" ADD COLUMN "submitter_contract_on" text;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "owner_contract_on" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "contract_on" text;