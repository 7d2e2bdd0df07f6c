import type { Language } from '../fact-types';
import { asks, normalise, PRESENT_ZH, splitClauses } from './read';
import { matchZh } from './slots';

export const chinese: Language = { clauses: splitClauses, asks, normalise, present: PRESENT_ZH, match: matchZh };
