import type { Language } from '../fact-types';
import { asks, normalise, PRESENT_ZH, splitClauses } from './read';
import { matchZh } from './slots';
import { originZh, pastAsPresentZh } from './tense';

export const chinese: Language = {
  clauses: splitClauses,
  asks,
  normalise,
  present: PRESENT_ZH,
  origin: originZh,
  pastAsPresent: pastAsPresentZh,
  match: matchZh,
};
