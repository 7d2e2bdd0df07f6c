import { isModelTimeout } from '@/lib/llm/timeouts';
import { embedTexts } from '../embed';
import { step } from './state';

/**
 * One embedding of the retrieval query, shared by every recall step. If the embedder is down or
 * times out (EMBED_TIMEOUT_MS) the turn goes on with lexical recall only, and says so in its warnings.
 */
export const embedQuery = step({
  name: 'embed_query',
  reads: ['models', 'retrieval', 'warnings'],
  writes: ['queryEmbedding', 'warnings'],
  async run({ models, retrieval, warnings }) {
    try {
      const [queryEmbedding] = await embedTexts(models, [retrieval.query], { urgent: true });
      return { queryEmbedding };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const what = isModelTimeout(error) ? 'timed out' : 'failed';
      return { queryEmbedding: [], warnings: [...warnings, `embedding the query ${what} (${reason}); recall used words only`] };
    }
  },
});
