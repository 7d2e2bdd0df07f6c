import { describe, expect, it } from 'vitest';
import { type BlockName, type BudgetInput, type BudgetItem, fitToBudget } from '@/lib/memory/context/budget';

const wide = { floor: 0, cap: 1 };
const noHeaders = { facts: 0, summary: 0, episodes: 0, history: 0 };
const items = (prefix: string, ...tokens: number[]): BudgetItem[] => tokens.map((t, i) => ({ key: `${prefix}${i + 1}`, tokens: t }));

function input(over: Partial<BudgetInput> & { lateFacts?: BudgetItem[] }): BudgetInput {
  const { lateFacts = [], ...rest } = over;
  return {
    budget: 1000,
    requiredTokens: 100,
    blocks: { facts: [], summary: [], episodes: [], history: [] },
    limits: { facts: wide, summary: wide, episodes: wide, history: wide },
    headerTokens: noHeaders,
    late: { why: 'not asked about', blocks: { facts: lateFacts } },
    ...rest,
  };
}

function decided(given: BudgetInput) {
  const outcome = fitToBudget(given);
  if (!outcome.ok) throw new Error('refused');
  const kept = outcome.decisions.filter((d) => d.kept);
  // What is recorded adds up to the total, and the total stays within the budget.
  expect(given.requiredTokens + kept.reduce((sum, d) => sum + d.tokens, 0) + headersOf(given, outcome.used)).toBe(outcome.total);
  expect(outcome.total).toBeLessThanOrEqual(given.budget);
  return { outcome, kept: kept.map((d) => d.key), reason: (key: string) => outcome.decisions.find((d) => d.key === key)?.reason };
}

const headersOf = (given: BudgetInput, used: Record<BlockName, number>) =>
  (Object.keys(used) as BlockName[]).reduce((sum, block) => sum + (used[block] > 0 ? given.headerTokens[block] : 0), 0);

describe('fitToBudget: late items', () => {
  it('gives late items only the room every block left, never the room of an earlier turn', () => {
    const { kept, reason } = decided(
      input({
        budget: 500,
        blocks: { facts: items('f', 50), summary: [], episodes: items('e', 150, 150), history: [] },
        lateFacts: items('u', 40, 40),
      }),
    );
    expect(kept).toEqual(['f1', 'e1', 'e2', 'u1']);
    expect(reason('u1')).toBe('not asked about; fits in the room left');
    expect(reason('u2')).toBe('not asked about, and no room was left');
  });

  it("stays within the late item's block cap even when the budget has room", () => {
    const { kept } = decided(
      input({
        limits: { facts: { floor: 0, cap: 0.1 }, summary: wide, episodes: wide, history: wide },
        blocks: { facts: items('f', 60), summary: [], episodes: [], history: [] },
        lateFacts: items('u', 30, 50, 10),
      }),
    );
    // The cap is 100: 60 + 30 fits, 50 does not, the 10 after it still does.
    expect(kept).toEqual(['f1', 'u1', 'u3']);
  });

  it('charges the block header to the first late item when the block kept nothing else', () => {
    const { outcome, kept } = decided(
      input({
        budget: 200,
        headerTokens: { ...noHeaders, facts: 30 },
        blocks: { facts: [], summary: [], episodes: [], history: items('h', 40) },
        lateFacts: items('u', 20, 20),
      }),
    );
    expect(kept).toEqual(['h1', 'u1']);
    expect(outcome.used.facts).toBe(50);
    expect(outcome.total).toBe(190);
  });

  it('numbers the kept lines 1..n, a block’s late items after its others, and prices each at its number', () => {
    // A line costs 10 tokens, 12 once its number has two digits.
    const tokensAt = (_key: string, n: number) => (n < 10 ? 10 : 12);
    const regular = Array.from({ length: 8 }, (_, i) => ({ key: `e${i + 1}`, tokens: tokensAt('', i + 1) }));
    const { outcome } = decided(
      input({
        budget: 220,
        blocks: { facts: items('f', 10), summary: [], episodes: regular, history: [] },
        lateFacts: [{ key: 'u1', tokens: 12 }],
        numbering: { blocks: ['facts', 'summary', 'episodes'], tokensAt },
      }),
    );
    expect(outcome.lines.map((l) => `${l.n}:${l.key}`).slice(0, 3)).toEqual(['1:f1', '2:u1', '3:e1']);
    // The late fact pushed the last episode to number 10: 9 × 10 + 12 + 100 required.
    expect(outcome.lines.at(-1)).toEqual({ key: 'e8', block: 'episodes', n: 10, tokens: 12 });
    expect(outcome.total).toBe(202);
  });

  it('lets a late item go again when the numbers it pushes up no longer fit the budget', () => {
    // A tokenizer that does not split a line's number from its text: the late line costs 15 wherever
    // it is listed, the others 10, and 15 from number 10 on.
    const tokensAt = (key: string, n: number) => (key === 'u1' || n >= 10 ? 15 : 10);
    const regular = Array.from({ length: 9 }, (_, i) => ({ key: `e${i + 1}`, tokens: tokensAt(`e${i + 1}`, i + 1) }));
    const { kept, reason } = decided(
      input({
        budget: 205,
        blocks: { facts: [], summary: [], episodes: regular, history: [] },
        // Priced after every other line it fits the 15 tokens left; listed before the episodes it
        // moves the ninth to number 10, 5 tokens more than the budget holds.
        lateFacts: [{ key: 'u1', tokens: 15 }],
        numbering: { blocks: ['facts', 'summary', 'episodes'], tokensAt },
      }),
    );
    expect(kept).toEqual(regular.map((item) => item.key));
    expect(reason('u1')).toBe('not asked about, and no room was left');
  });

  it('decides every late item once, and keeps none when there are none', () => {
    const outcome = fitToBudget(input({ blocks: { facts: items('f', 10), summary: [], episodes: [], history: [] }, late: undefined }));
    expect(outcome.ok && outcome.decisions.map((d) => d.key)).toEqual(['f1']);
  });
});
