import type { Fact } from '../inspector/types';

// What the Memory page's routes answer (dates as ISO strings).

/** A message a fact came from: where it is (for a link to it) and the words that stated the fact. */
export type FactSource = {
  messageId: string;
  spanStart: number | null;
  spanEnd: number | null;
  conversationId: string | null;
  conversationTitle: string | null;
  role: 'user' | 'assistant' | null;
  /** Null when part of those words was forgotten. */
  excerpt: string | null;
};

/** A reply that cited a fact as [n]. */
export type CitingReply = { messageId: string; conversationId: string; conversationTitle: string; createdAt: string };

/** GET /api/facts: a fact with its sources located and the replies that used it. */
export type PageFact = Omit<Fact, 'sources'> & { sources: FactSource[]; usedIn: { count: number; replies: CitingReply[] } };

/** POST /api/facts {content, slot?} */
export type AddFactResult = { fact: PageFact; replaced: string | null };

/** A remembered exchange (an episode): what recall can bring back of an earlier turn. */
export type Episode = {
  id: string;
  conversationId: string;
  conversationTitle: string;
  userMessageId: string;
  assistantMessageId: string;
  /** "User: …\nAssistant: …", as memory reads it (forgotten and corrected parts replaced). */
  content: string;
  createdAt: string;
};

/** GET /api/episodes */
export type EpisodePage = { episodes: Episode[]; nextCursor: string | null; total: number };

/** DELETE /api/episodes/:id */
export type EpisodeDeleteResult = { deleted: string; messagesMarked: number; recordsRedacted: number };

/** The kinds of fact (`slot`), as POST /api/facts accepts them. */
export const FACT_KINDS = [
  ['statement', 'Something about me'],
  ['name', 'Name'],
  ['location', 'Where I live'],
  ['work', 'Work'],
  ['diet', 'Diet'],
  ['allergy', 'Allergy'],
  ['family', 'Family'],
  ['pet', 'Pet'],
  ['like', 'Something I like'],
  ['dislike', 'Something I dislike'],
  ['date', 'A date'],
  ['plan', 'A plan'],
] as const;

export type FactKind = (typeof FACT_KINDS)[number][0];
