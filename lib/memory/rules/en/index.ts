import type { Language } from '../fact-types';
import { asks, expandEnglish, PRESENT_EN, splitClauses } from './read';
import { matchEn } from './slots';
import { originEn, pastAsPresentEn } from './tense';

export const english: Language = {
  clauses: splitClauses,
  asks,
  normalise: expandEnglish,
  present: PRESENT_EN,
  origin: originEn,
  pastAsPresent: pastAsPresentEn,
  match: matchEn,
};
