-- Known issues already published stay as they were: every item of a published namespace counts as seen by its
-- owner. From here on, a report filed after publishing waits for the owner before it is listed.
UPDATE "feedback" SET "known_listed" = true
WHERE "namespace" IN (SELECT "name" FROM "namespaces" WHERE "known_issues_published");
