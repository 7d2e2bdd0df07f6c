import { createHash } from 'node:crypto';
import { generateText } from 'ai';
import { cacheRewrite, getCachedRewrite } from '@/db/turns';
import { isModelTimeout } from '@/lib/llm/timeouts';
import { rules } from '../rules/bounded';
import { step, type TurnState } from './state';

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

    const modelId = models.memory ? `${models.memory.provider}:${models.memory.modelId}` : 'offline-rules';
    const key = createHash('sha256')
      .update(JSON.stringify([history.map((m) => [m.id, m.content]), question.content, modelId, now.toISOString().slice(0, 10)]))
      .digest('hex');
    const cached = await getCachedRewrite(scope.userId, key);
    if (cached) return { retrieval: { query: cached.query, reason: cached.reason, rewritten: true, cached: true, datesResolved: [] } };

    if (models.memory) {
      try {
        const { query, datesResolved } = await rewriteWithModel(state);
        const reason = `${trigger.reason}; rewritten by ${modelId}`;
        await cacheRewrite(scope.userId, key, query, reason);
        return { retrieval: { query, reason, rewritten: true, cached: false, datesResolved } };
      } catch (error) {
        // The memory model is down or too slow: the offline rules still resolve the reference (not cached).
        const { value: offline } = await rules.rewriteOffline(question.content, recentTurns(state), now);
        const { query, datesResolved } = offline;
        const why = error instanceof Error ? error.message : String(error);
        const what = isModelTimeout(error) ? 'timed out' : 'failed';
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
    }
    const { value: offline, gaveUp } = await rules.rewriteOffline(question.content, recentTurns(state), now);
    const { query, datesResolved } = offline;
    // A give-up is not an answer worth keeping: the next turn with this question tries again.
    if (gaveUp)
      return {
        retrieval: { query, reason: `${trigger.reason}; the offline rules gave up on it`, rewritten: false, cached: false, datesResolved },
      };
    const reason = `${trigger.reason}; resolved by offline rules`;
    await cacheRewrite(scope.userId, key, query, reason);
    return { retrieval: { query, reason, rewritten: true, cached: false, datesResolved } };
  },
});

/** The whole recent window: the offline rules carry terms from the user's turns in it, newest first. */
function recentTurns(state: Pick<TurnState, 'history'>) {
  return state.history.map((m) => ({ role: m.role, content: m.content }));
}

/** The LLM rewrite sees the last three user turns (and the reply before the question, for "it"). */
async function rewriteWithModel(state: Pick<TurnState, Reads>): Promise<{ query: string; datesResolved: string[] }> {
  const userTurns = state.history.filter((m) => m.role === 'user').slice(-3);
  const lastReply = [...state.history].reverse().find((m) => m.role === 'assistant');
  const { text } = await generateText({
    model: state.models.memory!,
    instructions:
      'Rewrite the final question into one standalone search query for a memory search. Replace pronouns and references with what they refer to, keep names and titles exactly, and write dates as YYYY-MM-DD. Answer with the query only, in the language of the question.',
    prompt: [
      `Today is ${state.now.toISOString().slice(0, 10)}.`,
      ...userTurns.map((m) => `User: ${m.content}`),
      ...(lastReply ? [`Assistant: ${lastReply.content}`] : []),
      `Final question: ${state.question.content}`,
    ].join('\n'),
    maxRetries: 1,
  });
  const { text: query, resolved } = await rules.absolutizeRelativeDates(text.trim() || state.question.content, state.now);
  return { query, datesResolved: resolved.map((r: { phrase: string; date: string }) => `${r.phrase} → ${r.date}`) };
}
