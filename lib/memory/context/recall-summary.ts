import { summaryForRecall } from '@/db/summaries';
import type { SummaryItem } from './context-item';
import { step } from './state';

/** The conversation's current rolling summary, if it has one, and which window messages it already stands for. */
export const recallSummary = step({
  name: 'recall_summary',
  reads: ['scope', 'retrieval', 'history'],
  writes: ['summaryVersion', 'summaryCovers'],
  appends: ['candidates', 'runs'],
  async run({ scope, retrieval, history }) {
    const read = await summaryForRecall(
      scope,
      history.map((m) => m.id),
    );
    const run = { kind: 'summary' as const, query: retrieval.query, topK: 1 };
    if (!read || read.summary.content.trim() === '') {
      return { summaryVersion: null, runs: [{ ...run, skipped: 'no summary yet', candidates: [] }] };
    }
    const { summary, sources, covers } = read;
    const item: SummaryItem = {
      key: `summary:${scope.conversationId}@v${summary.version}`,
      kind: 'summary',
      block: 'summary',
      text: summary.content.trim(),
      sourceMessageIds: sources,
      meta: { version: summary.version, coveredMessageCount: summary.coveredMessageCount, updatedBy: summary.updatedBy },
    };
    return {
      summaryVersion: summary.version,
      summaryCovers: covers,
      candidates: [item],
      runs: [{ ...run, candidates: [{ id: summary.conversationId, score: 1, vectorRank: null, lexicalRank: null }] }],
    };
  },
});
