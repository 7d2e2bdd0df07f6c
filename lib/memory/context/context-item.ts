/**
 * The things a turn's context is made of, one type per kind. Each step that makes an item gives it
 * its kind's own fields (`meta`), and the turn record stores them as they are, so whoever reads an
 * item (the budget, the inspector) learns what it holds from its kind, not by testing its fields.
 */

/** What every item has: its stable citation key, the text placed in the context and the messages it stands for (provenance). */
type Item = {
  /** fact:<id>, summary:<conversation>@v<n>, episode:<id>, message:<id>. */
  key: string;
  text: string;
  sourceMessageIds: string[];
};

/**
 * Where the searches placed an item: the fused score and place (null for an item brought along, not
 * found), and its place in each ranking (null when that ranking did not find it).
 */
export type Ranking = { score: number | null; rank: number | null; vectorRank: number | null; lexicalRank: number | null };

/** The ranking of an item no search placed (an exchange brought along; the summary in the turn record). */
export const UNRANKED: Ranking = { score: null, rank: null, vectorRank: null, lexicalRank: null };

export type FactItem = Item &
  Ranking & {
    kind: 'fact';
    block: 'facts';
    meta: {
      factId: string;
      slot: string;
      /** The conversation it was learned in; null for a fact the user added by hand. */
      conversationId: string | null;
      /** The fact as stated, without the notes of its line: what a repeat is judged by, and what forgetting redacts. */
      content: string;
      /** False when it shares no word with the question and is not close to it in meaning: the budget places it last. */
      related: boolean;
    };
  };

export type SummaryItem = Item & {
  kind: 'summary';
  block: 'summary';
  meta: { version: number; coveredMessageCount: number; updatedBy: string };
};

export type EpisodeItem = Item &
  Ranking & {
    kind: 'episode';
    block: 'episodes';
    meta: {
      conversationId: string;
      /** When the exchange was said (ISO). */
      at: string;
      /** For an exchange brought because it was said right before (-1) or after (1) one found: that one's key. */
      neighbourOf?: string;
      side?: -1 | 1;
    };
  };

/** A message of the recent window. */
export type HistoryItem = Item & { kind: 'history'; block: 'history'; role: 'user' | 'assistant' };

/** What recall finds, listed in the system prompt under a number. */
export type MemoryItem = FactItem | SummaryItem | EpisodeItem;

/** One thing that may be placed in the context. */
type ContextItem = MemoryItem | HistoryItem;

export type MemoryKind = ContextItem['kind'];
