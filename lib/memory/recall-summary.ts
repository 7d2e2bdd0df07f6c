import { getSummary } from '@/db/summaries';
import type { Step } from './state';

/** The conversation's current rolling summary, if it has one. */
export const recallSummary: Step = {
  name: 'recall_summary',
  async run({ scope, candidates, runs, retrieval }) {
    const summary = await getSummary(scope);
    const run = { kind: 'summary' as const, query: retrieval.query, topK: 1 };
    if (!summary || summary.content.trim() === '') {
      return { summaryVersion: null, runs: [...runs, { ...run, skipped: 'no summary yet', candidates: [] }] };
    }
    return {
      summaryVersion: summary.version,
      candidates: [
        ...candidates,
        {
          key: `summary:${scope.conversationId}@v${summary.version}`,
          kind: 'summary',
          block: 'summary',
          text: summary.content.trim(),
          sourceMessageIds: summary.sourceMessageIds,
          meta: { version: summary.version, coveredMessageCount: summary.coveredMessageCount, updatedBy: summary.updatedBy },
        },
      ],
      runs: [...runs, { ...run, candidates: [{ id: summary.conversationId, score: 1, vectorRank: null, lexicalRank: null }] }],
    };
  },
};
