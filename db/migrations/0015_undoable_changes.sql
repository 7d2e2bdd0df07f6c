CREATE TABLE "undoable_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"source_message_id" uuid,
	"fact_id" uuid,
	"previous_fact_id" uuid,
	"touches" text[] NOT NULL,
	"snapshot" jsonb,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "undoable_changes" ADD CONSTRAINT "undoable_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "undoable_changes_user_created_idx" ON "undoable_changes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "undoable_changes_source_idx" ON "undoable_changes" USING btree ("source_message_id");--> statement-breakpoint
CREATE INDEX "undoable_changes_expires_idx" ON "undoable_changes" USING btree ("expires_at") WHERE "undoable_changes"."snapshot" is not null;