import { loadRecentMessages } from '@/db/history';
import type { Step } from './state';

/** The recent window: the last HISTORY_WINDOW messages before the question, by a LIMIT in SQL. */
export const loadHistory: Step = {
  name: 'load_history',
  async run({ scope, question, assistantMessageId, config }) {
    const rows = await loadRecentMessages(scope, config.HISTORY_WINDOW, [question.id, assistantMessageId]);
    // A failed or empty reply carries nothing the model should see.
    return { history: rows.filter((m) => m.content.trim() !== '' && m.status !== 'failed') };
  },
};
