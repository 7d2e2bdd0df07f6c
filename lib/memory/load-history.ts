import { loadRecentMessages } from '@/db/history';
import { readRedacted } from './redaction';
import type { Step } from './state';

/**
 * The recent window: the last HISTORY_WINDOW messages before the question, by a LIMIT in SQL, with
 * the parts the user had memlens forget replaced (the chat still shows them, marked).
 */
export const loadHistory: Step = {
  name: 'load_history',
  async run({ scope, question, assistantMessageId, config }) {
    const rows = await readRedacted(await loadRecentMessages(scope, config.HISTORY_WINDOW, [question.id, assistantMessageId]), 'window');
    // A failed or empty reply carries nothing the model should see.
    return { history: rows.filter((m) => m.content.trim() !== '' && m.status !== 'failed') };
  },
};
