ALTER TABLE "users" ADD COLUMN "staff_via" text;--> statement-breakpoint
-- Staff from before this column are kept as granted by hand: taking them off STAFF_EMAILS does not demote them.
UPDATE "users" SET "staff_via" = 'grant' WHERE "role" = 'staff';
