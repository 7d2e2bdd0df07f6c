CREATE TYPE "public"."redaction_kind" AS ENUM('forgotten', 'corrected');--> statement-breakpoint
CREATE TABLE "memory_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"fact_id" uuid,
	"episode_id" uuid,
	"summary_version_id" uuid,
	"span_start" integer,
	"span_end" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_sources_one_memory" CHECK (num_nonnulls("memory_sources"."fact_id", "memory_sources"."episode_id", "memory_sources"."summary_version_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "message_redactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "redaction_kind" NOT NULL,
	"span_start" integer NOT NULL,
	"span_end" integer NOT NULL,
	"fact_id" uuid,
	"replacement" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "citations" DROP CONSTRAINT "citations_assistant_message_id_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "turn_records" DROP CONSTRAINT "turn_records_assistant_message_id_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "turn_records" DROP CONSTRAINT "turn_records_pkey";--> statement-breakpoint
ALTER TABLE "citations" ADD COLUMN "conversation_id" uuid;--> statement-breakpoint
ALTER TABLE "summaries" ADD COLUMN "covered_until_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "summaries" ADD COLUMN "covered_until_seq" bigint;--> statement-breakpoint
ALTER TABLE "summaries" ADD COLUMN "floor_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "summary_versions" ADD COLUMN "covered_until_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "summary_versions" ADD COLUMN "covered_until_seq" bigint;--> statement-breakpoint
ALTER TABLE "turn_records" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "turn_records" ADD CONSTRAINT "turn_records_assistant_message_id_attempt_pk" PRIMARY KEY("assistant_message_id","attempt");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "memory_floor_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_sources" ADD CONSTRAINT "memory_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_sources" ADD CONSTRAINT "memory_sources_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_sources" ADD CONSTRAINT "memory_sources_fact_id_facts_id_fk" FOREIGN KEY ("fact_id") REFERENCES "public"."facts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_sources" ADD CONSTRAINT "memory_sources_episode_id_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_sources" ADD CONSTRAINT "memory_sources_summary_version_id_summary_versions_id_fk" FOREIGN KEY ("summary_version_id") REFERENCES "public"."summary_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_redactions" ADD CONSTRAINT "message_redactions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_redactions" ADD CONSTRAINT "message_redactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_sources_message_idx" ON "memory_sources" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "memory_sources_fact_idx" ON "memory_sources" USING btree ("fact_id");--> statement-breakpoint
CREATE INDEX "memory_sources_episode_idx" ON "memory_sources" USING btree ("episode_id");--> statement-breakpoint
CREATE INDEX "memory_sources_summary_version_idx" ON "memory_sources" USING btree ("summary_version_id");--> statement-breakpoint
CREATE INDEX "message_redactions_message_idx" ON "message_redactions" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "message_redactions_user_fact_idx" ON "message_redactions" USING btree ("user_id","fact_id");--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "turn_records_user_idx" ON "turn_records" USING btree ("user_id");--> statement-breakpoint
-- Existing provenance moves into memory_sources before the arrays go (links to rows that still exist).
INSERT INTO "memory_sources" ("user_id", "message_id", "fact_id")
  SELECT f."user_id", s.id, f."id" FROM "facts" f CROSS JOIN LATERAL unnest(f."source_message_ids") AS s(id)
  WHERE EXISTS (SELECT 1 FROM "messages" m WHERE m."id" = s.id);--> statement-breakpoint
INSERT INTO "memory_sources" ("user_id", "message_id", "episode_id")
  SELECT e."user_id", m."id", e."id" FROM "episodes" e JOIN "messages" m ON m."id" IN (e."user_message_id", e."assistant_message_id");--> statement-breakpoint
INSERT INTO "memory_sources" ("user_id", "message_id", "summary_version_id")
  SELECT s."user_id", src.id, v."id" FROM "summaries" s
  JOIN "summary_versions" v ON v."conversation_id" = s."conversation_id" AND v."version" = s."version"
  CROSS JOIN LATERAL unnest(s."source_message_ids") AS src(id)
  WHERE EXISTS (SELECT 1 FROM "messages" m WHERE m."id" = src.id);--> statement-breakpoint
UPDATE "summaries" s SET "covered_until_at" = m."created_at", "covered_until_seq" = m."seq" FROM "messages" m WHERE m."id" = s."last_covered_message_id";--> statement-breakpoint
UPDATE "summary_versions" s SET "covered_until_at" = m."created_at", "covered_until_seq" = m."seq" FROM "messages" m WHERE m."id" = s."last_covered_message_id";--> statement-breakpoint
UPDATE "citations" c SET "conversation_id" = t."conversation_id" FROM "turn_records" t WHERE t."assistant_message_id" = c."assistant_message_id";--> statement-breakpoint
ALTER TABLE "facts" DROP COLUMN "source_message_ids";--> statement-breakpoint
ALTER TABLE "summaries" DROP COLUMN "last_covered_message_id";--> statement-breakpoint
ALTER TABLE "summaries" DROP COLUMN "source_message_ids";--> statement-breakpoint
ALTER TABLE "summary_versions" DROP COLUMN "last_covered_message_id";