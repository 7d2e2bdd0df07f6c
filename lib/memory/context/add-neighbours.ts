import { neighbourEpisodes } from '@/db/episode-neighbours';
import { type EpisodeItem, type MemoryItem, UNRANKED } from './context-item';
import { episodeItem } from './recall-episodes';
import { step } from './state';

/**
 * What was said right before and after the best earlier exchanges: an answer often spans two
 * neighbouring turns (a question and its reply, a story told over several messages), and a search
 * finds only the turn whose words match. Each of the first episodes found (NEIGHBOUR_ANCHORS; by
 * default one in NEIGHBOUR_EVERY of those the budget asks for, so a larger budget brings more) brings
 * the exchanges next to it in its conversation (NEIGHBOUR_SPAN each side), listed right after it, so
 * the budget keeps them while it has room and drops them before weaker hits only when it must.
 * The question's own exchange is never a neighbour; neither is an episode already found.
 */
export const addNeighbours = step({
  name: 'add_neighbours',
  reads: ['config', 'episodesTopK', 'scope', 'question', 'assistantMessageId', 'candidates'],
  writes: ['candidates'],
  async run({ config, episodesTopK, scope, question, assistantMessageId, candidates }) {
    const episodes = candidates.filter((c) => c.kind === 'episode');
    const wanted = config.NEIGHBOUR_ANCHORS || Math.max(1, Math.round(episodesTopK / config.NEIGHBOUR_EVERY));
    const anchors = episodes.slice(0, wanted);
    if (anchors.length === 0 || config.NEIGHBOUR_SPAN === 0) return { candidates };
    const idOf = (item: EpisodeItem) => item.key.slice('episode:'.length);
    const found = await neighbourEpisodes(scope.userId, anchors.map(idOf), config.NEIGHBOUR_SPAN);
    const taken = new Set(episodes.map(idOf));
    const own = new Set([question.id, assistantMessageId]);
    const byAnchor = new Map<string, MemoryItem[]>();
    for (const neighbour of found.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
      if (taken.has(neighbour.id) || own.has(neighbour.userMessageId) || own.has(neighbour.assistantMessageId)) continue;
      taken.add(neighbour.id);
      const anchor = anchors.find((a) => idOf(a) === neighbour.anchorId)!;
      const item = episodeItem(neighbour, UNRANKED, { neighbourOf: anchor.key, side: neighbour.side });
      byAnchor.set(anchor.key, [...(byAnchor.get(anchor.key) ?? []), item]);
    }
    return { candidates: candidates.flatMap((c) => [c, ...(byAnchor.get(c.key) ?? [])]) };
  },
});
