-- Custom SQL migration file, put your code below! ---- A paid reward never released the item its payment held, so every status change naming the item
-- answered 409 item-held for good. Release those items; the paid payout still keeps the one reward.
UPDATE "feedback" SET "resolving_payment_id" = NULL
WHERE "resolving_payment_id" IN (SELECT "payment_id" FROM "payouts" WHERE "status" = 'paid');
