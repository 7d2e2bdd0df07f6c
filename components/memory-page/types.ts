import type { EpisodeListing } from '@/db/memory-page';
import type { PageFact as ServerPageFact } from '@/lib/memory/memory-page';
import type { FACT_SLOTS } from '@/lib/memory/rules/fact-types';
import type { MemoryDeleteResult } from '../inspector/types';
import type { Json } from '../json';

// What the Memory page's routes answer: the server's own types, dates as ISO strings.

/** GET /api/facts: a fact with its sources located and the replies that used it. */
export type PageFact = Json<ServerPageFact>;

/** POST /api/facts {content, slot?} */
export type AddFactResult = { fact: PageFact; replaced: string | null };

/** A remembered exchange (an episode): what recall can bring back of an earlier turn. */
export type Episode = Json<EpisodeListing>;

/** GET /api/episodes */
export type EpisodePage = { episodes: Episode[]; nextCursor: string | null; total: number };

/** DELETE /api/episodes/:id */
export type EpisodeDeleteResult = MemoryDeleteResult;

export type FactKind = (typeof FACT_SLOTS)[number];

/** The kinds of fact (`slot`) POST /api/facts accepts, each with its label. */
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
] as const satisfies ReadonlyArray<readonly [FactKind, string]>;
