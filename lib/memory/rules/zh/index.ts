import type { Language } from '../fact-types';
import { asks, normalise, PRESENT_ZH, splitClauses, stripLead } from './read';
import { matchZh } from './slots';
import { originZh, pastAsPresentZh } from './tense';

export const chinese: Language = {
  clauses: splitClauses,
  asks,
  normalise,
  present: PRESENT_ZH,
  origin: originZh,
  pastAsPresent: pastAsPresentZh,
  // A lead-in before a date (跟你说，从上个月开始我…) is one once the date is out.
  match: (clause, reading) => matchZh(clause, { ...reading, s: stripLead(reading.s) }),
};
