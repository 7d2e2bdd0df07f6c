ALTER TYPE "public"."import_status" ADD VALUE 'dead';--> statement-breakpoint
ALTER TYPE "public"."job_status" ADD VALUE 'dead';--> statement-breakpoint
CREATE TABLE "audit_payloads" (
	"entry_id" bigint PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "payload_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_payloads" ADD CONSTRAINT "audit_payloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_payloads_user_idx" ON "audit_payloads" USING btree ("user_id");--> statement-breakpoint
-- What a payload hashes to: its before and after as one canonical JSON text (jsonb's own ordering).
CREATE FUNCTION "audit_payload_hash"("before" jsonb, "after" jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array("before", "after")::text, 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- An entry's link in the chain: the previous entry's hash and every field of this one but its own hash.
-- The time as whole microseconds since the epoch, so the session's time zone cannot change the text.
CREATE FUNCTION "audit_entry_hash"("prev" text, "e" "audit_log") RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(coalesce("prev", '') || jsonb_build_array(
    "e"."id", floor(extract(epoch FROM "e"."at") * 1000000)::bigint, "e"."actor", "e"."actor_user_id", "e"."actor_role",
    "e"."target_user_id", "e"."object_type", "e"."object_id", "e"."action", "e"."before", "e"."after", "e"."reason",
    "e"."request_id", "e"."payload_hash")::text, 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Existing entries give up the member's words (`content`, unless only the redaction mark) to the payload
-- table; a deleted member's are dropped.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_no_update_delete";--> statement-breakpoint
CREATE FUNCTION "audit_text_of"("value" jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof("value") = 'object' AND "value" ? 'content' AND "value" ->> 'content' IS DISTINCT FROM '[redacted]'
    THEN jsonb_build_object('content', "value" -> 'content') END
$$;--> statement-breakpoint
INSERT INTO "audit_payloads" ("entry_id", "user_id", "before", "after")
  SELECT a."id", a."target_user_id", audit_text_of(a."before"), audit_text_of(a."after") FROM "audit_log" a
  WHERE (audit_text_of(a."before") IS NOT NULL OR audit_text_of(a."after") IS NOT NULL)
    AND EXISTS (SELECT 1 FROM "users" u WHERE u."id" = a."target_user_id");--> statement-breakpoint
UPDATE "audit_log" SET
  "payload_hash" = audit_payload_hash(audit_text_of("before"), audit_text_of("after")),
  "before" = CASE WHEN audit_text_of("before") IS NULL THEN "before" ELSE "before" - 'content' END,
  "after" = CASE WHEN audit_text_of("after") IS NULL THEN "after" ELSE "after" - 'content' END
  WHERE audit_text_of("before") IS NOT NULL OR audit_text_of("after") IS NOT NULL;--> statement-breakpoint
DROP FUNCTION "audit_text_of"(jsonb);--> statement-breakpoint
DO $$
DECLARE
  "entry" "audit_log";
  "link" text;
BEGIN
  FOR "entry" IN SELECT * FROM "audit_log" ORDER BY "id" LOOP
    "link" := audit_entry_hash("link", "entry");
    UPDATE "audit_log" SET "hash" = "link" WHERE "id" = "entry"."id";
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_no_update_delete";--> statement-breakpoint
-- Each new entry is chained to the last one: writers take turns (the lock lasts to their commit, so
-- the next one reads this one's hash), and the id is drawn under the lock, so id order is chain order.
CREATE FUNCTION "audit_log_chain"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_log_chain'));
  NEW."id" := nextval(pg_get_serial_sequence('audit_log', 'id'));
  NEW."hash" := audit_entry_hash((SELECT "hash" FROM "audit_log" ORDER BY "id" DESC LIMIT 1), NEW);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_chain" BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_chain"();
