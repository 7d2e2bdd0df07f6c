import type { FactKind } from '../api-types';

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
  ['past', 'From my past'],
] as const satisfies ReadonlyArray<readonly [FactKind, string]>;
