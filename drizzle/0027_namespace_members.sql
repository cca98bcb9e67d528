CREATE TABLE "namespace_members" (
	"namespace" text NOT NULL,
	"wallet" text NOT NULL,
	"role" text NOT NULL,
	"added_at" timestamp (3) with time zone NOT NULL,
	"added_by" text NOT NULL,
	CONSTRAINT "namespace_members_namespace_wallet_pk" PRIMARY KEY("namespace","wallet"),
	CONSTRAINT "namespace_members_role_check" CHECK ("namespace_members"."role" in ('viewer', 'triager', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "transfer_to" text;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "transfer_proposed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "namespace_members_wallet_idx" ON "namespace_members" USING btree ("wallet");--> statement-breakpoint
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_transfer_check" CHECK (("namespaces"."transfer_to" is null) = ("namespaces"."transfer_proposed_at" is null));