import { createHash } from 'node:crypto';
import { cacheRewrite, getCachedRewrite } from '@/db/turns';
import { isModelTimeout } from '@/lib/llm/timeouts';
import { rules } from '../rules/bounded';
import { step } from './state';

/**
 * Rewrites the question into a standalone retrieval query, for retrieval only: the message shown
 * and stored never changes. Runs only when the question leans on earlier turns (a reference, an
 * ellipsis, a very short question) or names a relative date. Cached in Postgres by a hash of what
 * the rewrite reads (the window's messages with their text, the question's text, the model), so an
 * edited question or a corrected window never gets an old rewrite.
 */
type Reads = 'question' | 'history' | 'scope' | 'models' | 'now' | 'warnings';

export const rewriteForRetrieval = step({
  name: 'rewrite_for_retrieval',
  reads: ['question', 'history', 'scope', 'models', 'now', 'warnings'] satisfies Reads[],
  writes: ['retrieval', 'warnings'],
  async run(state) {
    const { question, history, scope, models, now } = state;
    const priorUserTurns = history.filter((m) => m.role === 'user').length;
    const { value: trigger } = await rules.detectRewriteTrigger(question.content, priorUserTurns);
    if (!trigger.needed) {
      return { retrieval: { query: question.content, reason: trigger.reason, rewritten: false, cached: false, datesResolved: [] } };
    }

    const { memoryModel } = models;
    const key = createHash('sha256')
      .update(JSON.stringify([history.map((m) => [m.id, m.content]), question.content, memoryModel.id, now.toISOString().slice(0, 10)]))
      .digest('hex');
    const cached = await getCachedRewrite(scope.userId, key);
    if (cached) return { retrieval: { query: cached.query, reason: cached.reason, rewritten: true, cached: true, datesResolved: [] } };

    // The whole recent window: the offline rules carry terms from the user's turns in it, newest first.
    const rewrite = await memoryModel.rewrite(
      question.content,
      history.map((m) => ({ role: m.role, content: m.content })),
      now,
    );
    const { query, datesResolved } = rewrite;
    if (rewrite.by === 'fallback') {
      // The offline rules stood in for the memory model: not cached, so the next turn asks the model again.
      const why = rewrite.modelError instanceof Error ? rewrite.modelError.message : String(rewrite.modelError);
      const what = isModelTimeout(rewrite.modelError) ? 'timed out' : 'failed';
      return {
        retrieval: {
          query,
          reason: `${trigger.reason}; offline rules (the memory model ${what})`,
          rewritten: true,
          cached: false,
          datesResolved,
        },
        warnings: [...state.warnings, `the retrieval rewrite model ${what} (${why})`],
      };
    }
    // A give-up is not an answer worth keeping: the next turn with this question tries again.
    if (rewrite.by === 'rules' && rewrite.gaveUp)
      return {
        retrieval: { query, reason: `${trigger.reason}; the offline rules gave up on it`, rewritten: false, cached: false, datesResolved },
      };
    const reason = `${trigger.reason}; ${rewrite.by === 'model' ? `rewritten by ${memoryModel.id}` : 'resolved by offline rules'}`;
    await cacheRewrite(scope.userId, key, query, reason);
    return { retrieval: { query, reason, rewritten: true, cached: false, datesResolved } };
  },
});
