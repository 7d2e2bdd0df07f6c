/**
 * fitToBudget: decide which context items fit in the token budget.
 * Pure. Priority: the system prompt and the current message are never dropped; then facts,
 * summary, episodes, and the recent window from newest to oldest. Each block has a floor (tokens
 * kept for it even when higher blocks are hungry) and a cap; trimming drops whole items. Late items
 * (a fact that shares nothing with the question) wait until every block has decided, and take only
 * the room left within their block's cap and the budget.
 */
export type BlockName = 'facts' | 'summary' | 'episodes' | 'history';
export const BLOCK_PRIORITY: BlockName[] = ['facts', 'summary', 'episodes', 'history'];

export type BudgetItem = { key: string; tokens: number };
export type BlockLimit = { floor: number; cap: number };

export type BudgetInput = {
  budget: number;
  /** Tokens that are always sent: system prompt, current message, framing. */
  requiredTokens: number;
  /**
   * Items of each block in the order they should be kept (best first; history newest first). A
   * numbered item's tokens are those of the number it gets were every item before it kept (see
   * `numbering`): renumbering the kept ones 1..n never costs more.
   */
  blocks: Record<BlockName, BudgetItem[]>;
  /** Fractions of the budget. */
  limits: Record<BlockName, BlockLimit>;
  /** Tokens each block adds once it keeps at least one item (its header line). */
  headerTokens: Record<BlockName, number>;
  /**
   * Items placed after every block, why they wait, and per block in the order they should be kept;
   * a late item's tokens are those of a number after every item of `blocks`.
   */
  late?: { why: string; blocks: Partial<Record<BlockName, BudgetItem[]>> };
  /**
   * The blocks listed as numbered lines, numbered 1.. in priority order, a block's late items after
   * its others, and the tokens of an item listed under number n (a longer number, a longer line).
   */
  numbering?: { blocks: BlockName[]; tokensAt: (key: string, n: number) => number };
};

export type ItemDecision = { key: string; block: BlockName; tokens: number; kept: boolean; reason: string };
/** A kept item of a numbered block, the number it is listed under and its tokens there. */
type NumberedLine = { key: string; block: BlockName; n: number; tokens: number };

export type BudgetOutcome =
  | {
      ok: true;
      decisions: ItemDecision[];
      lines: NumberedLine[];
      used: Record<BlockName, number>;
      requiredTokens: number;
      total: number;
      budget: number;
    }
  | { ok: false; requiredTokens: number; budget: number };

export function fitToBudget(input: BudgetInput): BudgetOutcome {
  const { budget, requiredTokens } = input;
  if (requiredTokens > budget) return { ok: false, requiredTokens, budget };

  const caps = Object.fromEntries(BLOCK_PRIORITY.map((b) => [b, Math.floor(input.limits[b].cap * budget)])) as Record<BlockName, number>;
  const placed = placeBlocks(input, caps);
  const late = placeLate(input, caps, placed);
  // Late items listed before a kept item of a lower block push its number up: while that overflows
  // the budget, the last late item taken goes.
  for (let take = late.taken.length; ; take--) {
    const taken = new Set(late.taken.slice(0, take));
    const final = renumber(input, placed.decisions, taken);
    if (final.total <= budget || take === 0) {
      const lateDecisions = late.items.map(({ item, block }) => ({
        key: item.key,
        block,
        tokens: item.tokens,
        kept: taken.has(item.key),
        reason: `${input.late?.why}${taken.has(item.key) ? '; fits in the room left' : ', and no room was left'}`,
      }));
      const decisions = [...placed.decisions, ...lateDecisions].map((d) => ({ ...d, tokens: final.tokens.get(d.key) ?? d.tokens }));
      return { ok: true, decisions, lines: final.lines, used: final.used, requiredTokens, total: final.total, budget };
    }
  }
}

/** Each block in priority order, within its cap and what the lower blocks' floors hold back. */
function placeBlocks(input: BudgetInput, caps: Record<BlockName, number>) {
  const floors = Object.fromEntries(BLOCK_PRIORITY.map((b) => [b, Math.floor(input.limits[b].floor * input.budget)])) as Record<
    BlockName,
    number
  >;
  let remaining = input.budget - input.requiredTokens;
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
  return { decisions, used, remaining };
}

/** The late items, each block's in turn, as many as fit in the room left within its cap and the budget. */
function placeLate(input: BudgetInput, caps: Record<BlockName, number>, placed: ReturnType<typeof placeBlocks>) {
  let remaining = placed.remaining;
  const items: Array<{ item: BudgetItem; block: BlockName }> = [];
  const taken: string[] = [];
  for (const block of BLOCK_PRIORITY) {
    let spent = placed.used[block];
    for (const item of input.late?.blocks[block] ?? []) {
      items.push({ item, block });
      const cost = item.tokens + (spent === 0 ? input.headerTokens[block] : 0);
      if (cost > Math.min(remaining, caps[block] - spent)) continue;
      spent += cost;
      remaining -= cost;
      taken.push(item.key);
    }
  }
  return { items, taken };
}

/** The kept items with their final numbers and tokens, what each block uses and the total sent. */
function renumber(input: BudgetInput, decisions: ItemDecision[], lateTaken: Set<string>) {
  const kept = new Set(decisions.filter((d) => d.kept).map((d) => d.key));
  const numbered = new Set(input.numbering?.blocks ?? []);
  const lines: NumberedLine[] = [];
  const tokens = new Map<string, number>();
  const used = { facts: 0, summary: 0, episodes: 0, history: 0 } as Record<BlockName, number>;
  for (const block of BLOCK_PRIORITY) {
    const items = [
      ...input.blocks[block].filter((item) => kept.has(item.key)),
      ...(input.late?.blocks[block] ?? []).filter((item) => lateTaken.has(item.key)),
    ];
    for (const item of items) {
      const cost = numbered.has(block) && input.numbering ? input.numbering.tokensAt(item.key, lines.length + 1) : item.tokens;
      if (numbered.has(block)) lines.push({ key: item.key, block, n: lines.length + 1, tokens: cost });
      tokens.set(item.key, cost);
      used[block] += cost;
    }
    if (items.length > 0) used[block] += input.headerTokens[block];
  }
  const total = input.requiredTokens + BLOCK_PRIORITY.reduce((sum, block) => sum + used[block], 0);
  return { lines, tokens, used, total };
}

function demand(input: BudgetInput, block: BlockName): number {
  const items = input.blocks[block];
  return items.length === 0 ? 0 : input.headerTokens[block] + items.reduce((sum, item) => sum + item.tokens, 0);
}
