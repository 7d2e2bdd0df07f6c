-- Only the rows of a user who holds more than 2,000 rows in a memory table are in its HNSW graph
-- (db/schema.ts inGraph): a smaller user's vector search reads their own rows exactly, so their
-- writes never pay for a graph the size of everyone's data, and a large user's search walks a graph
-- of large users' rows only. The graph indexes become partial, built after the backfill.
DROP INDEX "episodes_embedding_idx";--> statement-breakpoint
DROP INDEX "facts_embedding_idx";--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "in_graph" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "in_graph" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The backfill writes a new version of every row of a large user: without the lexical indexes,
-- built again after it, it does not update them row by row.
DROP INDEX "episodes_user_search_vector_idx";--> statement-breakpoint
DROP INDEX "facts_user_search_vector_idx";--> statement-breakpoint
UPDATE "episodes" SET "in_graph" = true WHERE "user_id" IN (SELECT "user_id" FROM "episodes" GROUP BY "user_id" HAVING count(*) > 2000);--> statement-breakpoint
UPDATE "facts" SET "in_graph" = true WHERE "user_id" IN (SELECT "user_id" FROM "facts" GROUP BY "user_id" HAVING count(*) > 2000);--> statement-breakpoint
CREATE INDEX "episodes_user_search_vector_idx" ON "episodes" USING gin ("user_id","search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "facts_user_search_vector_idx" ON "facts" USING gin ("user_id","search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "episodes_user_in_graph_idx" ON "episodes" USING btree ("user_id") WHERE "episodes"."in_graph";--> statement-breakpoint
CREATE INDEX "facts_user_in_graph_idx" ON "facts" USING btree ("user_id") WHERE "facts"."in_graph";--> statement-breakpoint
CREATE INDEX "episodes_embedding_idx" ON "episodes" USING hnsw ("embedding" vector_cosine_ops) WHERE "episodes"."in_graph";--> statement-breakpoint
CREATE INDEX "facts_embedding_idx" ON "facts" USING hnsw ("embedding" vector_cosine_ops) WHERE "facts"."in_graph";--> statement-breakpoint
-- Whether a user's rows of a table are in its graph: one probe of the user's in-graph index. The
-- setting is the function's own, so no statistics can turn the probe into a scan of other users'
-- rows (a small user has no such row, and a scan would read the whole table to find none).
CREATE FUNCTION memlens_in_graph(tbl regclass, uid uuid) RETURNS boolean
LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $$
DECLARE yes boolean;
BEGIN
  EXECUTE format('select exists (select 1 from %s where user_id = $1 and in_graph)', tbl) INTO yes USING uid;
  RETURN yes;
END $$;--> statement-breakpoint
-- A row written for (or moved to) a user whose rows are in the graph joins it.
CREATE FUNCTION memlens_join_graph() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.in_graph := memlens_in_graph(TG_RELID::regclass, NEW.user_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER episodes_join_graph BEFORE INSERT OR UPDATE OF user_id ON episodes FOR EACH ROW EXECUTE FUNCTION memlens_join_graph();--> statement-breakpoint
CREATE TRIGGER facts_join_graph BEFORE INSERT OR UPDATE OF user_id ON facts FOR EACH ROW EXECUTE FUNCTION memlens_join_graph();--> statement-breakpoint
-- A user past 2,000 rows in the table: all their rows go into the graph. Counted through the user
-- index, up to 2,001 rows (the setting is the function's own, so no statistics turn the count into
-- a scan of other users' rows). Called by the statement that added rows outside the graph, and by a
-- guest's merge into a member (db/merge-guest.ts).
CREATE FUNCTION memlens_grow_graph(tbl regclass, uid uuid) RETURNS void
LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
  EXECUTE format(
    'update %s set in_graph = true where user_id = $1 and not in_graph
       and (select count(*) from (select 1 from %s where user_id = $1 limit 2001) n) > 2000', tbl, tbl)
  USING uid;
END $$;--> statement-breakpoint
CREATE FUNCTION memlens_rows_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM memlens_grow_graph(TG_RELID::regclass, a.user_id) FROM (SELECT DISTINCT user_id FROM added WHERE NOT in_graph) a;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER episodes_rows_added AFTER INSERT ON episodes REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memlens_rows_added();--> statement-breakpoint
CREATE TRIGGER facts_rows_added AFTER INSERT ON facts REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memlens_rows_added();--> statement-breakpoint
-- The search no longer counts a user's rows: it asks whether they are in the graph (db/hybrid-search.ts).
DROP FUNCTION memlens_user_rows(regclass, uuid, integer);
