'use client';

import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, memoryKeys } from '../api';
import type { Episode } from '../api-types';
import { ConfirmDialog } from '../confirm-dialog';
import { TrashIcon } from '../icons';
import { useAfterMemoryChange } from '../memory-changed';
import { ActionNotice, describeForgetting, useActionNotice } from '../memory-edits';
import { formatDateTime, formatRelative, plural } from '../ui/format';
import { LoadError } from '../ui/loading';
import { RedactedText } from '../ui/redacted-text';
import { SearchField, SearchResults, useDebounced } from '../ui/search';
import { buttons } from '../ui/styles';
import { messageHref, Panel } from './panel';
import { citedIn, SentWith } from './usage';

/** The earlier exchanges memlens can recall: newest first, searchable, deletable, a page at a time. */
export function EpisodesPanel() {
  const [search, setSearch] = useState('');
  const notice = useActionNotice();
  const q = useDebounced(search.trim());
  const query = useInfiniteQuery({
    queryKey: memoryKeys.episodes(q),
    queryFn: ({ pageParam }) => api.listEpisodes({ q, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    staleTime: 2_000,
  });
  const episodes = query.data?.pages.flatMap((page) => page.episodes) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  const searching = q !== '';

  return (
    <Panel
      id="episodes"
      title="Remembered exchanges"
      meta={query.data && !searching ? <span data-testid="episodes-count">{plural(total, 'exchange')}</span> : null}
      description="After each reply memlens keeps the exchange (your message and its answer) so it can bring it back when it becomes relevant again. Delete one and it is never recalled again; your messages stay in the chat, marked as forgotten."
    >
      <SearchField
        label="Search remembered exchanges"
        value={search}
        onChange={setSearch}
        placeholder="Search exchanges (any language)"
        testId="episode-search"
      />

      <ActionNotice notice={notice} testId="episode-notice" />

      <SearchResults
        query={query}
        // An error loading a further page shows below the pages already there.
        error={episodes.length === 0 ? query.error : null}
        what="the remembered exchanges"
        isEmpty={episodes.length === 0}
        emptyText={
          searching
            ? `No remembered exchange contains “${q}”.`
            : 'Nothing remembered yet. Once you chat, each exchange is kept here so memlens can recall it later.'
        }
        foundText={searching ? `${plural(total, 'exchange')} containing “${q}”` : null}
        testIds={{ empty: 'episodes-empty', found: 'episodes-found' }}
      >
        <ul className="space-y-2.5" data-testid="episode-list">
          {episodes.map((episode) => (
            <EpisodeCard key={episode.id} episode={episode} onDeleted={notice.say} />
          ))}
        </ul>
        {query.isFetchNextPageError ? (
          <div className="mt-3">
            <LoadError what="more exchanges" error={query.error!} retry={() => void query.fetchNextPage()} />
          </div>
        ) : null}
        {query.hasNextPage ? (
          <div className="mt-3 flex justify-center">
            <button
              type="button"
              data-testid="episodes-more"
              onClick={() => void query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
              className={buttons.secondary}
            >
              {query.isFetchingNextPage ? 'Loading…' : `Show more (${plural(total - episodes.length, 'more exchange')})`}
            </button>
          </div>
        ) : null}
      </SearchResults>
    </Panel>
  );
}

/** "User: …\nAssistant: …" as (speaker, text) turns; a line without a speaker continues the turn before it. */
function turnsOf(content: string): Array<{ speaker: 'you' | 'memlens'; text: string }> {
  const turns: Array<{ speaker: 'you' | 'memlens'; text: string }> = [];
  for (const line of content.split('\n')) {
    const match = /^(User|Assistant): ?(.*)$/u.exec(line);
    if (match) turns.push({ speaker: match[1] === 'User' ? 'you' : 'memlens', text: match[2] });
    else if (turns.length > 0) turns[turns.length - 1].text += `\n${line}`;
    else turns.push({ speaker: 'you', text: line });
  }
  return turns;
}

function EpisodeCard({ episode, onDeleted }: { episode: Episode; onDeleted: (message: string) => void }) {
  const queryClient = useQueryClient();
  const afterMemoryChange = useAfterMemoryChange();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteEpisode(episode.id),
    onSuccess: (result) => {
      setConfirming(false);
      queryClient.setQueriesData<{ pages: Array<{ episodes: Episode[]; total: number }> }>({ queryKey: memoryKeys.episodesAll }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => {
                const kept = page.episodes.filter((e) => e.id !== episode.id);
                return { ...page, episodes: kept, total: page.total - (kept.length < page.episodes.length ? 1 : 0) };
              }),
            }
          : data,
      );
      // Summaries are rebuilt, the chat's messages are marked, turn records redacted: every memory view re-reads.
      afterMemoryChange();
      onDeleted(describeForgetting(result));
    },
  });

  return (
    <li data-testid="memory-episode" data-episode-id={episode.id} className="rounded-lg border border-line bg-surface p-3 text-sm">
      <div className="flex items-start gap-2 text-xs text-muted">
        <div className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <Link
            href={messageHref(episode.conversationId, episode.userMessageId)}
            className="min-w-0 max-w-full truncate font-medium text-accent hover:underline"
            data-testid="memory-episode-link"
            title="Open this exchange in its conversation"
          >
            {episode.conversationTitle}
          </Link>
          <time className="text-faint" dateTime={episode.createdAt} title={formatDateTime(episode.createdAt)}>
            {formatRelative(episode.createdAt)}
          </time>
          <span className="text-muted" data-testid="memory-episode-usage">
            <SentWith usage={episode.usedIn} testId="memory-episode-sent" />
            {episode.usedIn.sent > 0 ? `, ${citedIn(episode.usedIn)}` : null}
          </span>
        </div>
        <button
          type="button"
          data-testid="memory-episode-delete"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
          className={`shrink-0 ${buttons.quietDanger}`}
          aria-label={`Delete this remembered exchange from “${episode.conversationTitle}”`}
        >
          <TrashIcon width={12} height={12} /> Delete
        </button>
      </div>
      <dl className="mt-2 space-y-1.5">
        {turnsOf(episode.content).map((turn, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the turns parsed from one stored episode, in order, never reordered
          <div key={index} className="grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-2">
            <dt className={`text-xs leading-5 font-medium ${turn.speaker === 'you' ? 'text-fg' : 'text-muted'}`}>
              {turn.speaker === 'you' ? 'You' : 'memlens'}
            </dt>
            <dd className={`line-clamp-4 leading-5 break-words whitespace-pre-wrap ${turn.speaker === 'you' ? 'text-fg' : 'text-muted'}`}>
              <RedactedText text={turn.text} />
            </dd>
          </div>
        ))}
      </dl>
      {confirming ? (
        <ConfirmDialog
          open
          title="Delete this remembered exchange?"
          description="memlens stops recalling this exchange: it leaves what memlens remembers, and the summary of its conversation is rebuilt without it. Your messages stay in the chat, marked as forgotten and no longer sent to the model. Facts learned from it stay: delete them on their own. Inspector records of earlier replies stay, with this exchange shown as redacted."
          confirmLabel="Delete"
          busy={remove.isPending}
          error={remove.error ? remove.error.message : null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
          testId="memory-episode-delete-dialog"
        />
      ) : null}
    </li>
  );
}
