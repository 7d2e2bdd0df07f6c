-- The lexical index: a GIN index over (user_id, search_terms); btree_gin indexes the uuid in GIN.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "episodes_content_trgm_idx";--> statement-breakpoint
DROP INDEX "facts_content_trgm_idx";--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "search_terms" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "search_terms" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Backfill of existing rows, computed in SQL as db/search-terms.ts computes it, but for one thing:
-- SQL has no Chinese word segmenter, so CJK text gets its single characters and bigrams (every
-- two-character query word and bigram still matches; a longer segmented word matches through its
-- bigrams). Rows written from now on get the segmenter's words from the application.
CREATE FUNCTION memlens_backfill_search_terms(content text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  select coalesce(array_agg(distinct term), '{}'::text[]) from (
    select case
        when length(w) > 5 and w like '%ing' then left(w, -3)
        when length(w) > 4 and w like '%ed' then left(w, -2)
        when length(w) > 5 and (w like '%or' or w like '%er') then left(w, -2)
        when length(w) > 3 and w like '%s' and w not like '%ss' then left(w, -1)
        else w
      end as term
    from regexp_split_to_table(
      lower(regexp_replace(content, '[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+', ' ', 'g')),
      '[[:space:][:punct:]“”‘’«»–—…，。！？、；：（）《》【】]+') as w
    where length(w) > 1
    union all
    select substr(run[1], i, n)
    from regexp_matches(lower(content), '[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+', 'g') as run,
         generate_series(1, length(run[1])) as i, (values (1), (2)) as size(n)
    where i + n - 1 <= length(run[1])
  ) terms
$$;--> statement-breakpoint
UPDATE "episodes" SET "search_terms" = memlens_backfill_search_terms("content");--> statement-breakpoint
UPDATE "facts" SET "search_terms" = memlens_backfill_search_terms("content");--> statement-breakpoint
DROP FUNCTION memlens_backfill_search_terms(text);--> statement-breakpoint
CREATE INDEX "episodes_user_search_terms_idx" ON "episodes" USING gin ("user_id","search_terms") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "facts_user_search_terms_idx" ON "facts" USING gin ("user_id","search_terms") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "jobs_message_idx" ON "jobs" USING btree ("message_id");
