CREATE INDEX "facts_superseded_by_idx" ON "facts" USING btree ("superseded_by") WHERE "facts"."superseded_by" is not null;--> statement-breakpoint
-- A 512-dimension vector (2 KB) is just over the size at which Postgres moves a value out of line:
-- every candidate of a vector search then costs a TOAST lookup to compute its distance. Kept inline
-- (rows written from now on; older rows move when they are next written).
ALTER TABLE "episodes" ALTER COLUMN "embedding" SET STORAGE PLAIN;--> statement-breakpoint
ALTER TABLE "facts" ALTER COLUMN "embedding" SET STORAGE PLAIN;
--> statement-breakpoint
-- How many rows (up to cap) a user holds in a memory table, read through the user index: a recall
-- decides by it whether to search the user's rows exactly or walk the HNSW graph. The setting is
-- the function's own (no SET round trip per search), so no statistics, stale or small, can turn
-- the count into a scan of other users' rows.
CREATE FUNCTION memlens_user_rows(tbl regclass, uid uuid, cap integer) RETURNS bigint
LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $$
DECLARE n bigint;
BEGIN
  EXECUTE format('select count(*) from (select 1 from %s where user_id = $1 limit $2) u', tbl) INTO n USING uid, cap;
  RETURN n;
END $$;
