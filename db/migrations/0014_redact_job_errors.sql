-- Errors of failed jobs used to be stored whole: a failed query's SQL and parameters (a user's message)
-- and a stack. Every such row predates this migration; the worker now stores a summary without them.
UPDATE "jobs" SET "last_error" = 'An earlier error whose stored text could hold SQL and parameters; removed by migration 0014.' WHERE "last_error" IS NOT NULL;
