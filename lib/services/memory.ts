import { episodeSources } from '@/db/episodes';
import { getFact, getFactHistory, withSources } from '@/db/facts';
import { getEpisodeListing, listEpisodesPage, listFactsPage, type PageCursor } from '@/db/memory-page';
import type { Fact } from '@/db/schema';
import { memoryCounts } from '@/db/users';
import { notFound } from '../errors';
import { factEventsForOwner } from '../memory/actors';
import { describeFacts, encodeCursor, withEpisodeUsage } from '../memory/memory-page';
import { undoWindowMinutes } from './recent-changes';

/**
 * A page of the user's facts matching the filter, newest change first, one item per statement (the
 * facts one sentence gave, with their `ids` and `kinds`), each with its sources and the replies that
 * cited it; `nextCursor` asks for the next page (null on the last).
 */
export async function factsPage(userId: string, query: { status?: Fact['status']; q?: string; cursor?: PageCursor; limit: number }) {
  const page = await listFactsPage(userId, query);
  return { facts: await describeFacts(userId, page.items), nextCursor: page.next ? encodeCursor(page.next) : null, total: page.total };
}

/** One of the user's facts with its sources and its history of events; anyone else's is not found. */
export async function factWithHistory(userId: string, id: string) {
  const fact = await getFact(userId, id);
  if (!fact) throw notFound('Fact', id);
  return { fact: (await withSources(userId, [fact]))[0], history: await factEventsForOwner(userId, id, await getFactHistory(userId, id)) };
}

/** A fact as the API answers it after a change: with its sources. */
export async function factWithSources(userId: string, fact: Fact) {
  return (await withSources(userId, [fact]))[0];
}

/** Facts as the API answers them after a change: with their sources. */
export const factsWithSources = (userId: string, facts: Fact[]) => withSources(userId, facts);

/** A page of the user's remembered exchanges, newest first; `nextCursor` asks for the next page (null on the last). */
export async function episodesPage(userId: string, query: { q?: string; cursor?: PageCursor; limit: number }) {
  const page = await listEpisodesPage(userId, query);
  return {
    episodes: await withEpisodeUsage(userId, page.episodes),
    nextCursor: page.next ? encodeCursor(page.next) : null,
    total: page.total,
  };
}

/** One of the user's remembered exchanges with the messages it was made from; anyone else's is not found. */
export async function episodeWithSources(userId: string, id: string) {
  const episode = await getEpisodeListing(userId, id);
  if (!episode) throw notFound('Episode', id);
  const [listed] = await withEpisodeUsage(userId, [episode]);
  return { ...listed, sourceMessageIds: await episodeSources(userId, id) };
}

/** What "forget everything" would remove now, what stays, and for how many minutes it can be undone. */
export const memoryCountsOf = async (userId: string) => ({ ...(await memoryCounts(userId)), undoMinutes: undoWindowMinutes() });
