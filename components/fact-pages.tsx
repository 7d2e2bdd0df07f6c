'use client';

import { type InfiniteData, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from './api';
import type { FactPage, FactStatus } from './api-types';
import { plural } from './ui/format';
import { LoadError } from './ui/loading';
import { buttons } from './ui/styles';

/**
 * The user's facts a page at a time (GET /api/facts is paged), as the inspector and the Memory page
 * list them: the pages loaded so far, how many match in all, and the query to load more.
 */
export function useFactPages(queryKey: readonly unknown[], filter: { q?: string; status?: FactStatus }) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => api.listFacts({ ...filter, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    staleTime: 2_000,
  });
  const facts = query.data?.pages.flatMap((page) => page.facts) ?? [];
  return { query, facts, total: query.data?.pages[0]?.total ?? 0 };
}

/** Loaded fact pages without the items holding these facts (deleted), the count lowered by the items dropped. */
export function withoutFact(data: InfiniteData<FactPage> | undefined, ids: string[]): InfiniteData<FactPage> | undefined {
  if (!data) return data;
  const gone = (fact: FactPage['facts'][number]) => ids.includes(fact.id) || (fact.ids ?? []).some((id) => ids.includes(id));
  const dropped = data.pages.reduce((sum, page) => sum + page.facts.filter(gone).length, 0);
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      facts: page.facts.filter((fact) => !gone(fact)),
      total: page.total - dropped,
    })),
  };
}

/** "Show more" under a fact list while pages remain, and the error of a page that failed to load. */
export function MoreFacts({ pages, loaded, total }: { pages: ReturnType<typeof useFactPages>['query']; loaded: number; total: number }) {
  return (
    <>
      {pages.isFetchNextPageError ? (
        <div className="mt-3">
          <LoadError what="more facts" error={pages.error!} retry={() => void pages.fetchNextPage()} />
        </div>
      ) : null}
      {pages.hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <button
            type="button"
            data-testid="facts-more"
            onClick={() => void pages.fetchNextPage()}
            disabled={pages.isFetchingNextPage}
            className={buttons.secondary}
          >
            {pages.isFetchingNextPage ? 'Loading…' : `Show more (${plural(total - loaded, 'more fact')})`}
          </button>
        </div>
      ) : null}
    </>
  );
}
