/**
 * fitToBudget: decide which context items fit in the token budget.
 * Pure. Priority: the system prompt and the current message are never dropped; then facts,
 * summary, episodes, and the recent window from newest to oldest. Each block has a floor (tokens
 * kept for it even when higher blocks are hungry) and a cap; trimming drops whole items.
 */
export type BlockName = 'facts' | 'summary' | 'episodes' | 'history';
export const BLOCK_PRIORITY: BlockName[] = ['facts', 'summary', 'episodes', 'history'];

export type BudgetItem = { key: string; tokens: number };
export type BlockLimit = { floor: number; cap: number };

export type BudgetInput = {
  budget: number;
  /** Tokens that are always sent: system prompt, current message, framing. */
  requiredTokens: number;
  /** Items of each block in the order they should be kept (best first; history newest first). */
  blocks: Record<BlockName, BudgetItem[]>;
  /** Fractions of the budget. */
  limits: Record<BlockName, BlockLimit>;
  /** Tokens each block adds once it keeps at least one item (its header line). */
  headerTokens: Record<BlockName, number>;
};

export type ItemDecision = { key: string; block: BlockName; tokens: number; kept: boolean; reason: string };

export type BudgetOutcome =
  | { ok: true; decisions: ItemDecision[]; used: Record<BlockName, number>; requiredTokens: number; total: number; budget: number }
  | { ok: false; requiredTokens: number; budget: number };

export function fitToBudget(input: BudgetInput): BudgetOutcome {
  const { budget, requiredTokens } = input;
  if (requiredTokens > budget) return { ok: false, requiredTokens, budget };

  const floors = Object.fromEntries(BLOCK_PRIORITY.map((b) => [b, Math.floor(input.limits[b].floor * budget)])) as Record<
    BlockName,
    number
  >;
  const caps = Object.fromEntries(BLOCK_PRIORITY.map((b) => [b, Math.floor(input.limits[b].cap * budget)])) as Record<BlockName, number>;
  let remaining = budget - requiredTokens;
  const used = { facts: 0, summary: 0, episodes: 0, history: 0 } as Record<BlockName, number>;
  const decisions: ItemDecision[] = [];

  BLOCK_PRIORITY.forEach((block, index) => {
    // What lower-priority blocks are promised (their floors, as far as they have items to use them).
    const reservedBelow = BLOCK_PRIORITY.slice(index + 1).reduce((sum, lower) => sum + Math.min(floors[lower], demand(input, lower)), 0);
    const allowance = Math.min(caps[block], Math.max(0, remaining - reservedBelow));
    let spent = 0;
    let full = false;
    for (const item of input.blocks[block]) {
      const cost = item.tokens + (spent === 0 ? input.headerTokens[block] : 0);
      // History is a contiguous window: once one message does not fit, older ones are dropped too.
      if (!full && spent + cost <= allowance) {
        spent += cost;
        decisions.push({ key: item.key, block, tokens: item.tokens, kept: true, reason: 'fits' });
      } else {
        if (block === 'history') full = true;
        const reason =
          full && spent + cost <= allowance
            ? 'older than a dropped message'
            : spent + cost > caps[block]
              ? `over the ${block} cap (${caps[block]} tokens)`
              : 'over the total budget';
        decisions.push({ key: item.key, block, tokens: item.tokens, kept: false, reason });
      }
    }
    used[block] = spent;
    remaining -= spent;
  });

  return { ok: true, decisions, used, requiredTokens, total: budget - remaining, budget };
}

function demand(input: BudgetInput, block: BlockName): number {
  const items = input.blocks[block];
  return items.length === 0 ? 0 : input.headerTokens[block] + items.reduce((sum, item) => sum + item.tokens, 0);
}
