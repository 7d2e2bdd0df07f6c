import type { QuestionResult } from './locomo';
import { markdownTable, mean, percentile } from './report';

export type SystemSummary = {
  system: string;
  questions: number;
  recallByCategory: Record<string, number | null>;
  /** Strict: evidence text present in the context (categories 1–4). */
  recallOverall: number;
  /** Credited: also evidence that an item in the context lists as its source. */
  creditedRecallOverall: number;
  recallCategory5: number | null;
  meanTokens: number;
  p95Tokens: number;
  shareOfFullHistoryTokens: number;
  /** Context tokens spent per evidence turn present (categories 1–4): what the budget pays for each piece that answers. */
  tokensPerEvidence: number | null;
};

/** Overall = categories 1–4 (5, adversarial, is reported on its own, as LoCoMo does). */
export function summarise(results: Record<string, QuestionResult[]>): SystemSummary[] {
  const fullMean = mean((results['full-history'] ?? []).map((r) => r.tokens));
  return Object.entries(results).map(([system, rows]) => {
    const main = rows.filter((r) => r.category >= 1 && r.category <= 4);
    const byCategory = Object.fromEntries(
      [1, 2, 3, 4].map((c) => {
        const of = rows.filter((r) => r.category === c);
        return [String(c), of.length ? round(mean(of.map((r) => r.recall))) : null];
      }),
    );
    const five = rows.filter((r) => r.category === 5);
    const tokens = rows.map((r) => r.tokens);
    return {
      system,
      questions: rows.length,
      recallByCategory: byCategory,
      recallOverall: round(mean(main.map((r) => r.recall))),
      creditedRecallOverall: round(mean(main.map((r) => r.creditedRecall))),
      recallCategory5: five.length ? round(mean(five.map((r) => r.recall))) : null,
      meanTokens: Math.round(mean(tokens)),
      p95Tokens: Math.round(percentile(tokens, 95)),
      shareOfFullHistoryTokens: fullMean ? round(mean(tokens) / fullMean) : 0,
      tokensPerEvidence: found(main) ? Math.round(main.reduce((sum, r) => sum + r.tokens, 0) / found(main)) : null,
    };
  });
}

export function summaryTable(rows: SystemSummary[]): string {
  const fmt = (v: number | null) => (v === null ? '-' : v.toFixed(3));
  return markdownTable(
    [
      'system',
      'questions',
      'cat 1',
      'cat 2',
      'cat 3',
      'cat 4',
      'strict (1-4)',
      'credited (1-4)',
      'cat 5',
      'mean tokens',
      'p95 tokens',
      'share of full',
      'tokens per evidence',
    ],
    rows.map((r) => [
      r.system,
      r.questions,
      fmt(r.recallByCategory['1']),
      fmt(r.recallByCategory['2']),
      fmt(r.recallByCategory['3']),
      fmt(r.recallByCategory['4']),
      fmt(r.recallOverall),
      fmt(r.creditedRecallOverall),
      fmt(r.recallCategory5),
      r.meanTokens,
      r.p95Tokens,
      `${(r.shareOfFullHistoryTokens * 100).toFixed(1)}%`,
      r.tokensPerEvidence ?? '-',
    ]),
  );
}

const round = (v: number) => Math.round(v * 1000) / 1000;
const found = (rows: QuestionResult[]) => rows.reduce((sum, r) => sum + r.evidenceFound, 0);
