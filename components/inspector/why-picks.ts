import { api } from '../api';
import type { WhyAnswer } from '../api-types';

/** One item of the user's memory the inspector can ask about. */
export type MemoryPick = { key: string; kind: 'fact' | 'episode' | 'summary'; text: string; note: string | null };

type FactLike = { id: string; content: string; status: string };
type EpisodeLike = { id: string; content: string; conversationTitle: string };

const STATUS_NOTES: Record<string, string> = { superseded: 'replaced', deleted: 'ended' };

export const factPicks = (facts: FactLike[]): MemoryPick[] =>
  facts.map((f) => ({ key: `fact:${f.id}`, kind: 'fact', text: f.content, note: STATUS_NOTES[f.status] ?? null }));

const episodePicks = (episodes: EpisodeLike[]): MemoryPick[] =>
  episodes.map((e) => ({
    key: `episode:${e.id}`,
    kind: 'episode',
    text: e.content.replace(/(?<!\s)[^\S\n]*\n\s*/gu, ' / '),
    note: `in “${e.conversationTitle}”`,
  }));

/** The user's own memory containing `q` (facts, then remembered exchanges), at most `limit`. */
export async function ownMemoryPicks(q: string, limit = 12): Promise<MemoryPick[]> {
  const [facts, episodes] = await Promise.all([api.listFacts({ q: q || undefined }), api.listEpisodes({ q: q || undefined })]);
  return [...factPicks(facts.facts), ...episodePicks(episodes.episodes)].slice(0, limit);
}

export const ownWhy = (messageId: string, item: string): Promise<WhyAnswer> => api.whyNotRecalled(messageId, item);
