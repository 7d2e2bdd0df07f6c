import type { AppConfig } from '@/lib/config';
import { HttpError } from '@/lib/http';
import { BLOCK_PRIORITY, type BlockLimit, type BlockName, type BudgetItem, fitToBudget as decide } from './budget';
import { basePrompt, CITATION_INSTRUCTIONS, type ListedBlock, memoryLine, SECTION_HEADERS } from './context-layout';
import type { BudgetReport, ContextItem, NumberedItem, Step, TurnState } from './state';
import { countTokens, MESSAGE_OVERHEAD_TOKENS, type ModelLimits, modelLimits, REPLY_PRIMING_TOKENS } from './tokens';

export const DEFAULT_LIMITS: Record<BlockName, BlockLimit> = {
  facts: { floor: 0.05, cap: 0.2 },
  summary: { floor: 0.05, cap: 0.25 },
  episodes: { floor: 0.05, cap: 0.3 },
  history: { floor: 0.1, cap: 1 },
};

/** The lines always sent, with their tokens: system prompt, instructions, the question, chat framing. */
export function requiredLines(config: AppConfig, limits: ModelLimits, question: { id: string; content: string }) {
  const count = (text: string) => countTokens(text, limits.encoding);
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

/** A question that alone does not fit is refused before anything is stored. */
export function assertQuestionFits(config: AppConfig, modelId: string, question: { id: string; content: string }): void {
  const limits = modelLimits(config, modelId);
  const required = requiredLines(config, limits, question).reduce((sum, line) => sum + line.tokens, 0);
  if (required > limits.budget) {
    throw new HttpError(
      400,
      'exceeds_context_budget',
      `message.text: the message needs ${required} tokens with the system prompt, more than the context budget of ${limits.budget} tokens for ${modelId}.`,
    );
  }
}

/**
 * Chooses what fits: facts, summary, episodes, then the recent window newest first, each block within
 * its floor and cap. Records every item's decision with its exact tokens.
 *
 * The window and the memories never overlap or leave a gap: window messages the kept summary
 * stands for are not sent raw (unless the summary itself is dropped), and an episode is dropped
 * only when every message of it is sent raw, judged on the messages actually kept, not on the
 * loaded window. Dropping such episodes frees room for more of the window, so this repeats until
 * nothing changes; each pass removes at least one episode, so it ends.
 */
export const fitToBudgetStep: Step = {
  name: 'fit_to_budget',
  run(state) {
    assertQuestionFits(state.config, state.models.chatModelId, state.question);
    const covered = new Set(state.summaryCovers);
    const inWindow: ContextItem[] = [];
    let rawHistory = state.history.filter((m) => !covered.has(m.id));
    let fit = fitOnce(state, state.candidates, rawHistory, inWindow);
    for (;;) {
      if (covered.size > 0 && rawHistory.length < state.history.length && !fit.numbered.some((item) => item.kind === 'summary')) {
        rawHistory = state.history; // the summary did not fit: its messages go raw after all
        fit = fitOnce(
          state,
          state.candidates.filter((c) => !inWindow.includes(c)),
          rawHistory,
          inWindow,
        );
        continue;
      }
      const sentRaw = new Set(fit.keptHistory.flatMap((item) => item.sourceMessageIds));
      const redundant = state.candidates.filter(
        (c) => c.block === 'episodes' && !inWindow.includes(c) && c.sourceMessageIds.every((id) => sentRaw.has(id)),
      );
      if (redundant.length === 0) return fit;
      inWindow.push(...redundant);
      fit = fitOnce(
        state,
        state.candidates.filter((c) => !inWindow.includes(c)),
        rawHistory,
        inWindow,
      );
    }
  },
};

/** One pass of the budget over the given memory candidates and window messages. */
function fitOnce(state: TurnState, candidates: ContextItem[], window: TurnState['history'], inWindow: ContextItem[]) {
  const { config, models } = state;
  const limits = modelLimits(config, models.chatModelId);
  const count = (text: string) => countTokens(text, limits.encoding);
  const required = requiredLines(config, limits, state.question);

  // Provisional numbers in priority order; kept items are renumbered 1..n afterwards.
  const memory = (['facts', 'summary', 'episodes'] as ListedBlock[]).flatMap((block) => candidates.filter((c) => c.block === block));
  const history = [...window].reverse().map(
    (m): ContextItem => ({
      key: `message:${m.id}`,
      kind: 'history',
      block: 'history',
      text: m.content,
      role: m.role,
      sourceMessageIds: [m.id],
      meta: { status: m.status, at: m.createdAt.toISOString() },
    }),
  );
  const tokensOf = (item: ContextItem, n: number) =>
    item.block === 'history' ? count(item.text) + MESSAGE_OVERHEAD_TOKENS : count(memoryLine(n, item.text));
  const blocks = Object.fromEntries(BLOCK_PRIORITY.map((b) => [b, [] as BudgetItem[]])) as Record<BlockName, BudgetItem[]>;
  memory.forEach((item, i) => blocks[item.block].push({ key: item.key, tokens: tokensOf(item, i + 1) }));
  history.forEach((item) => blocks.history.push({ key: item.key, tokens: tokensOf(item, 0) }));

  const headerTokens = {
    facts: count(SECTION_HEADERS.facts),
    summary: count(SECTION_HEADERS.summary),
    episodes: count(SECTION_HEADERS.episodes),
    history: 0,
  };
  const outcome = decide({
    budget: limits.budget,
    requiredTokens: required.reduce((sum, line) => sum + line.tokens, 0),
    blocks,
    limits: lendUnusedShares(blockLimits(config), blocks, limits.budget),
    headerTokens,
  });
  if (!outcome.ok) throw new HttpError(400, 'exceeds_context_budget', 'The message does not fit in the context budget.');

  const kept = new Set(outcome.decisions.filter((d) => d.kept).map((d) => d.key));
  const numbered: NumberedItem[] = memory
    .filter((item) => kept.has(item.key))
    .map((item, i) => ({ ...item, n: i + 1, tokens: count(memoryLine(i + 1, item.text)) }));
  const keptHistory = history.filter((item) => kept.has(item.key)).reverse();
  const finalTokens = new Map<string, number>([
    ...numbered.map((item) => [item.key, item.tokens] as const),
    ...keptHistory.map((item) => [item.key, tokensOf(item, 0)] as const),
  ]);

  const decisions: BudgetReport['decisions'] = [
    ...required.map((line) => ({ ...line, block: 'required' as const, kept: true as const })),
    ...(['facts', 'summary', 'episodes'] as ListedBlock[])
      .filter((block) => numbered.some((item) => item.block === block))
      .map((block) => ({ key: `header:${block}`, block, tokens: headerTokens[block], kept: true, reason: `${block} section header` })),
    ...outcome.decisions.map((d) => ({ ...d, tokens: finalTokens.get(d.key) ?? d.tokens })),
    ...inWindow.map((item) => ({
      key: item.key,
      block: item.block,
      tokens: 0,
      kept: false,
      reason: 'every message of it is sent in the recent window',
    })),
  ];
  const byBlock = { required: 0, facts: 0, summary: 0, episodes: 0, history: 0 };
  for (const d of decisions) if (d.kept) byBlock[d.block] += d.tokens;
  const total = Object.values(byBlock).reduce((sum, n) => sum + n, 0);
  return { budget: { budget: limits.budget, limits, total, byBlock, decisions }, numbered, keptHistory } satisfies Partial<TurnState>;
}

export function blockLimits(config: AppConfig): Record<BlockName, BlockLimit> {
  return { ...DEFAULT_LIMITS, ...mapLimits(config) };
}

/** The share of the budget the memory blocks' caps leave to the recent window. */
const windowShare = (limits: Record<BlockName, BlockLimit>) => Math.max(0, 1 - limits.facts.cap - limits.summary.cap - limits.episodes.cap);

/**
 * What the window and the other memory blocks cannot use goes to earlier turns: the part of the
 * window's share its messages leave, and the cap of a block with nothing to offer (no summary yet, no
 * facts). A new conversation has neither window nor summary, and earlier conversations are all
 * there is to draw on; a long conversation's full window and summary leave the caps as they are.
 */
export function lendUnusedShares(
  limits: Record<BlockName, BlockLimit>,
  blocks: Record<BlockName, BudgetItem[]>,
  budget: number,
): Record<BlockName, BlockLimit> {
  const windowTokens = blocks.history.reduce((sum, item) => sum + item.tokens, 0);
  const unusedWindow = Math.max(0, windowShare(limits) - windowTokens / budget);
  const emptyBlocks = (['facts', 'summary'] as const)
    .filter((block) => blocks[block].length === 0)
    .reduce((sum, block) => sum + limits[block].cap, 0);
  return { ...limits, episodes: { ...limits.episodes, cap: Math.min(1, limits.episodes.cap + unusedWindow + emptyBlocks) } };
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
