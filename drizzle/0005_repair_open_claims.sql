-- Every claim gets a deadline: a claim written before deadlines were required (a credential whose
-- expiry could not be read) is given ten minutes from its creation, after which reconciliation decides it.
UPDATE "payments" SET "expires_at" = "created_at" + interval '10 minutes' WHERE "expires_at" IS NULL;--> statement-breakpoint
-- Items still held by a payment that failed or was refunded were never released: release them now.
UPDATE "feedback" SET "resolving_payment_id" = NULL
WHERE "resolving_payment_id" IN (SELECT "id" FROM "payments" WHERE "status" IN ('failed', 'refunded'));
