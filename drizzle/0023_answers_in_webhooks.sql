ALTER TABLE "namespaces" DROP CONSTRAINT "namespaces_webhook_events_check";--> statement-breakpoint
ALTER TABLE "namespaces" ALTER COLUMN "webhook_events" SET DEFAULT '{feedback.created,feedback.resolved,feedback.status_changed,feedback.confirmed,feedback.disputed,reward.paid}'::text[];--> statement-breakpoint
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_webhook_events_check" CHECK ("namespaces"."webhook_events" <@ '{feedback.created,feedback.resolved,feedback.status_changed,feedback.confirmed,feedback.disputed,reward.paid}'::text[]);--> statement-breakpoint
-- A namespace that receives every event (the default) receives the two new ones too; a narrower choice stays as chosen.
UPDATE "namespaces" SET "webhook_events" = '{feedback.created,feedback.resolved,feedback.status_changed,feedback.confirmed,feedback.disputed,reward.paid}'::text[] WHERE "webhook_events" @> '{feedback.created,feedback.resolved,feedback.status_changed,reward.paid}'::text[];
