CREATE TABLE "signer_leases" (
	"address" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
