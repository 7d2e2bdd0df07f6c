import { describe, expect, it } from 'vitest';
import { type BlockName, type BudgetInput, fitToBudget } from '@/lib/memory/context/budget';
import { DEFAULT_LIMITS, lendUnusedShares } from '@/lib/memory/context/budget-policy';

const limits = (over: Partial<Record<BlockName, { floor: number; cap: number }>> = {}) => ({
  facts: { floor: 0.1, cap: 0.3 },
  summary: { floor: 0.1, cap: 0.3 },
  episodes: { floor: 0.1, cap: 0.3 },
  history: { floor: 0.1, cap: 1 },
  ...over,
});
const items = (prefix: string, ...tokens: number[]) => tokens.map((t, i) => ({ key: `${prefix}${i + 1}`, tokens: t }));
const noHeaders = { facts: 0, summary: 0, episodes: 0, history: 0 };

function input(over: Partial<BudgetInput>): BudgetInput {
  return {
    budget: 1000,
    requiredTokens: 100,
    blocks: { facts: [], summary: [], episodes: [], history: [] },
    limits: limits(),
    headerTokens: noHeaders,
    ...over,
  };
}

const kept = (outcome: ReturnType<typeof fitToBudget>) =>
  outcome.ok ? outcome.decisions.filter((d) => d.kept).map((d) => d.key) : 'refused';

const cases: Array<{ name: string; input: BudgetInput; kept: string[] | 'refused'; check?: (o: ReturnType<typeof fitToBudget>) => void }> =
  [
    {
      name: 'everything fits',
      input: input({ blocks: { facts: items('f', 50), summary: items('s', 50), episodes: items('e', 50), history: items('h', 50, 50) } }),
      kept: ['f1', 's1', 'e1', 'h1', 'h2'],
    },
    { name: 'a question that alone exceeds the budget is refused', input: input({ requiredTokens: 1001 }), kept: 'refused' },
    {
      name: 'a question that exactly fills the budget leaves room for nothing',
      input: input({ requiredTokens: 1000, blocks: { facts: items('f', 1), summary: [], episodes: [], history: items('h', 1) } }),
      kept: [],
    },
    {
      name: 'caps drop whole items, best first kept',
      input: input({ blocks: { facts: items('f', 200, 200, 200), summary: [], episodes: [], history: [] } }),
      kept: ['f1'],
    },
    {
      name: 'floors of lower blocks are protected from higher blocks',
      input: input({
        budget: 500,
        requiredTokens: 100,
        limits: limits({ facts: { floor: 0, cap: 1 } }),
        blocks: { facts: items('f', 100, 100, 100, 100), summary: [], episodes: [], history: items('h', 50) },
      }),
      kept: ['f1', 'f2', 'f3', 'h1'],
    },
    {
      name: 'history is newest first and contiguous: once one message is dropped, older ones go too',
      input: input({
        budget: 300,
        requiredTokens: 100,
        blocks: { facts: [], summary: [], episodes: [], history: items('h', 100, 150, 20) },
      }),
      kept: ['h1'],
      check: (o) => {
        if (!o.ok) throw new Error('refused');
        expect(o.decisions.find((d) => d.key === 'h3')?.reason).toBe('older than a dropped message');
      },
    },
    {
      name: 'lowest priority is trimmed first',
      input: input({
        budget: 600,
        requiredTokens: 100,
        limits: limits({
          facts: { floor: 0, cap: 1 },
          summary: { floor: 0, cap: 1 },
          episodes: { floor: 0, cap: 1 },
          history: { floor: 0, cap: 1 },
        }),
        blocks: { facts: items('f', 200), summary: items('s', 200), episodes: items('e', 200), history: items('h', 200) },
      }),
      kept: ['f1', 's1'],
    },
    {
      name: 'a header is charged once, with the first item of its block',
      input: input({
        budget: 300,
        requiredTokens: 100,
        limits: limits({ facts: { floor: 0, cap: 1 } }),
        headerTokens: { ...noHeaders, facts: 60 },
        blocks: { facts: items('f', 70, 80), summary: [], episodes: [], history: [] },
      }),
      kept: ['f1'],
      check: (o) => {
        if (!o.ok) throw new Error('refused');
        expect(o.used.facts).toBe(130);
        expect(o.total).toBe(230);
      },
    },
    { name: 'an empty context keeps only what is required', input: input({}), kept: [], check: (o) => expect(o.ok && o.total).toBe(100) },
    {
      name: 'an item larger than its cap is dropped even when the budget is empty',
      input: input({ blocks: { facts: items('f', 400), summary: items('s', 10), episodes: [], history: [] } }),
      kept: ['s1'],
    },
  ];

describe('fitToBudget', () => {
  it.each(cases)('$name', ({ input: given, kept: expected, check }) => {
    const outcome = fitToBudget(given);
    expect(kept(outcome)).toEqual(expected);
    if (outcome.ok) {
      // Never over budget, and every item is decided exactly once.
      expect(outcome.total).toBeLessThanOrEqual(given.budget);
      const all = Object.values(given.blocks)
        .flat()
        .map((i) => i.key)
        .sort();
      expect(outcome.decisions.map((d) => d.key).sort()).toEqual(all);
      for (const d of outcome.decisions.filter((x) => !x.kept)) expect(d.reason).not.toBe('fits');
    }
    check?.(outcome);
  });
});

describe('lendUnusedShares', () => {
  const defaults = DEFAULT_LIMITS;
  const some = (prefix: string, ...tokens: number[]) => tokens.map((t, i) => ({ key: `${prefix}${i + 1}`, tokens: t }));
  const episodesCap = (blocks: Record<BlockName, Array<{ key: string; tokens: number }>>, budget = 4000) =>
    lendUnusedShares(defaults, blocks, budget).episodes.cap;

  const capTokens = (block: 'facts' | 'summary') => defaults[block].cap * 4000;

  it("gives a new conversation's earlier turns the window's and the missing summary's shares, and what the facts leave", () => {
    const windowShare = 1 - defaults.facts.cap - defaults.summary.cap - defaults.episodes.cap;
    expect(episodesCap({ facts: some('f', 30), summary: [], episodes: some('e', 60), history: [] })).toBeCloseTo(
      defaults.episodes.cap + windowShare + defaults.summary.cap + defaults.facts.cap - 30 / 4000,
    );
  });

  it('leaves the caps alone when the window, the facts and the summary fill their shares', () => {
    const blocks = {
      facts: some('f', capTokens('facts')),
      summary: some('s', capTokens('summary')),
      episodes: some('e', 60),
      history: some('h', 600, 600),
    };
    expect(lendUnusedShares(defaults, blocks, 4000)).toEqual(defaults);
  });

  it('lends only the part of each share its items leave', () => {
    const windowShare = 1 - defaults.facts.cap - defaults.summary.cap - defaults.episodes.cap;
    const cap = episodesCap({ facts: some('f', 30), summary: some('s', 100), episodes: some('e', 60), history: some('h', 200) });
    expect(cap).toBeCloseTo(
      defaults.episodes.cap + windowShare - 200 / 4000 + (defaults.facts.cap - 30 / 4000) + (defaults.summary.cap - 100 / 4000),
    );
  });
});
