import type { Language } from '../fact-types';
import { asks, expandEnglish, PRESENT_EN, splitClauses } from './read';
import { matchEn } from './slots';

export const english: Language = { clauses: splitClauses, asks, normalise: expandEnglish, present: PRESENT_EN, match: matchEn };
