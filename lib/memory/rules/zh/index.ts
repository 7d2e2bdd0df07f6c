import type { Language } from '../fact-types';
import { PRESENT_ZH, asks, normalise, splitClauses } from './read';
import { matchZh } from './slots';

export const chinese: Language = { clauses: splitClauses, asks, normalise, present: PRESENT_ZH, match: matchZh };
