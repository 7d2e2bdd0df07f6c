import { embedTexts } from './embed';
import type { Step } from './state';

/** One embedding of the retrieval query, shared by every recall step. */
export const embedQuery: Step = {
  name: 'embed_query',
  async run({ models, retrieval }) {
    const [queryEmbedding] = await embedTexts(models, [retrieval.query]);
    return { queryEmbedding };
  },
};
