import type { Language } from '../fact-types';
import { asks, expandEnglish, PRESENT_EN, splitClauses } from './read';
import { matchEn } from './slots';
import { timingEn } from './tense';

export const english: Language = {
  clauses: splitClauses,
  asks,
  normalise: expandEnglish,
  present: PRESENT_EN,
  timing: timingEn,
  match: matchEn,
};
