import type { Language } from '../fact-types';
import { PRESENT_EN, asks, expandEnglish, splitClauses } from './read';
import { matchEn } from './slots';

export const english: Language = { clauses: splitClauses, asks, normalise: expandEnglish, present: PRESENT_EN, match: matchEn };
