import type { AppConfig } from '@/lib/config';
import { DomainError } from '@/lib/errors';
import type { BlockLimit, BlockName, BudgetItem } from './budget';
import { basePrompt, CITATION_INSTRUCTIONS } from './context-layout';
import { countTokens, MESSAGE_OVERHEAD_TOKENS, type ModelLimits, modelLimits, REPLY_PRIMING_TOKENS, type TokenCounter } from './tokens';

/**
 * The budget policy every step of the chain reads: each block's share of the context budget, the
 * lines always sent, whether a question fits at all, and how much a recall asks for.
 */

export const DEFAULT_LIMITS: Record<BlockName, BlockLimit> = {
  facts: { floor: 0.05, cap: 0.2 },
  summary: { floor: 0.05, cap: 0.25 },
  episodes: { floor: 0.05, cap: 0.3 },
  history: { floor: 0.1, cap: 1 },
};

/** The lines always sent, with their tokens: system prompt, instructions, the question, chat framing. */
export function requiredLines(
  config: AppConfig,
  limits: ModelLimits,
  question: { id: string; content: string },
  count: TokenCounter = (text) => countTokens(text, limits.encoding),
) {
  return [
    { key: 'system:prompt', tokens: count(basePrompt(config)), reason: 'system prompt' },
    { key: 'system:instructions', tokens: count(CITATION_INSTRUCTIONS), reason: 'citation instructions' },
    { key: `question:${question.id}`, tokens: count(question.content), reason: 'the current message is never dropped' },
    {
      key: 'framing',
      tokens: REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS,
      reason: 'chat framing of the system message and the question, and reply priming',
    },
  ];
}

/** The tokens a question needs with the lines always sent, when that alone exceeds the budget; else null. */
export function overBudget(config: AppConfig, modelId: string, question: { id: string; content: string }) {
  const limits = modelLimits(config, modelId);
  const required = requiredLines(config, limits, question).reduce((sum, line) => sum + line.tokens, 0);
  return required > limits.budget ? { required, budget: limits.budget } : null;
}

/**
 * The most tokens a message may have: the budget less the lines always sent with it. The composer
 * counts a message in `encoding` against it, as `overBudget` will (a line's tokens add up).
 */
export function messageTokenLimit(config: AppConfig, modelId: string) {
  const limits = modelLimits(config, modelId);
  const fixed = requiredLines(config, limits, { id: '', content: '' }).reduce((sum, line) => sum + line.tokens, 0);
  return { maxMessageTokens: Math.max(0, limits.budget - fixed), encoding: limits.encoding };
}

/** A question that alone does not fit is refused before anything is stored, and before the budget is fitted. */
export function assertQuestionFits(config: AppConfig, modelId: string, question: { id: string; content: string }): void {
  const over = overBudget(config, modelId, question);
  if (over) {
    throw new DomainError(
      'exceeds_context_budget',
      `message.text: the message needs ${over.required} tokens with the system prompt, more than the context budget of ${over.budget} tokens for ${modelId}.`,
    );
  }
}

export function blockLimits(config: AppConfig): Record<BlockName, BlockLimit> {
  return { ...DEFAULT_LIMITS, ...mapLimits(config) };
}

/** The share of the budget the memory blocks' caps leave to the recent window. */
const windowShare = (limits: Record<BlockName, BlockLimit>) => Math.max(0, 1 - limits.facts.cap - limits.summary.cap - limits.episodes.cap);

/**
 * What the window and the other memory blocks cannot use goes to earlier turns: the part of the
 * window's share its messages leave, and the part of the facts' and the summary's caps their items
 * leave (all of it when a block has nothing to offer: no summary yet, no facts). A new conversation
 * has neither window nor summary, and earlier conversations are all there is to draw on; a long
 * conversation's full window and summary leave the caps as they are.
 */
export function lendUnusedShares(
  limits: Record<BlockName, BlockLimit>,
  blocks: Record<BlockName, BudgetItem[]>,
  budget: number,
): Record<BlockName, BlockLimit> {
  const share = (block: BlockName) => blocks[block].reduce((sum, item) => sum + item.tokens, 0) / budget;
  const unusedWindow = Math.max(0, windowShare(limits) - share('history'));
  const unusedBlocks = (['facts', 'summary'] as const).reduce((sum, block) => sum + Math.max(0, limits[block].cap - share(block)), 0);
  return { ...limits, episodes: { ...limits.episodes, cap: Math.min(1, limits.episodes.cap + unusedWindow + unusedBlocks) } };
}

/** Typical tokens of one recalled item, for sizing a recall to its block's cap. */
const TYPICAL_ITEM_TOKENS = { facts: 30, episodes: 60 } as const;

/**
 * How many candidates a recall asks for: the configured top-k, or (0 = auto) enough to fill the block's
 * cap, for episodes in a new conversation also the window's and the summary's shares (lendUnusedShares).
 */
export function recallTopK(config: AppConfig, modelId: string, block: 'facts' | 'episodes', newConversation = false): number {
  const configured = block === 'facts' ? config.FACTS_TOP_K : config.EPISODES_TOP_K;
  if (configured > 0) return configured;
  const limits = blockLimits(config);
  const share = limits[block].cap + (newConversation && block === 'episodes' ? windowShare(limits) + limits.summary.cap : 0);
  return Math.min(50, Math.max(5, Math.ceil((share * modelLimits(config, modelId).budget) / TYPICAL_ITEM_TOKENS[block])));
}

function mapLimits(config: AppConfig): Partial<Record<BlockName, BlockLimit>> {
  return Object.fromEntries(
    Object.entries(config.BUDGET_BLOCKS).map(([block, limit]) => [block, { ...DEFAULT_LIMITS[block as BlockName], ...limit }]),
  );
}
