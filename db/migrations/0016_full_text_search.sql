-- The lexical index becomes a Postgres full-text tsvector (db/search-vector.ts): the english
-- configuration over the text (CJK runs blanked, words cut to 100 characters), plus the CJK terms
-- (segmented words and bigrams) under the simple configuration. GIN over (user_id, search_vector).
ALTER TABLE "episodes" ADD COLUMN "search_vector" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "search_vector" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
-- Backfill in SQL, as db/search-vector.ts computes it: the CJK terms of a row are exactly the
-- all-CJK entries of its old search_terms (the segmenter's words and bigrams the application wrote).
CREATE FUNCTION memlens_backfill_search_vector(content text, terms text[]) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
  select to_tsvector('english', regexp_replace(regexp_replace(content, '[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+', ' ', 'g'), '(\S{100})\S+', '\1', 'g'))
    || to_tsvector('simple', array_to_string(array(
         select t from unnest(terms) as t where t ~ '^[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+$'), ' '))
$$;--> statement-breakpoint
UPDATE "episodes" SET "search_vector" = memlens_backfill_search_vector("content", "search_terms");--> statement-breakpoint
UPDATE "facts" SET "search_vector" = memlens_backfill_search_vector("content", "search_terms");--> statement-breakpoint
DROP FUNCTION memlens_backfill_search_vector(text, text[]);--> statement-breakpoint
DROP INDEX "episodes_user_search_terms_idx";--> statement-breakpoint
DROP INDEX "facts_user_search_terms_idx";--> statement-breakpoint
ALTER TABLE "episodes" DROP COLUMN "search_terms";--> statement-breakpoint
ALTER TABLE "facts" DROP COLUMN "search_terms";--> statement-breakpoint
CREATE INDEX "episodes_user_search_vector_idx" ON "episodes" USING gin ("user_id","search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "facts_user_search_vector_idx" ON "facts" USING gin ("user_id","search_vector") WITH (fastupdate=false);
