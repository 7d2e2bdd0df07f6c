DROP TABLE "sessions" CASCADE;--> statement-breakpoint
ALTER TABLE "auth_users" ADD COLUMN "is_anonymous" boolean DEFAULT false NOT NULL;