import { alreadySaidReason, IN_WINDOW_REASON } from '@/lib/shared/budget-reasons';
import { BLOCK_PRIORITY, type BlockName, type BudgetItem, fitToBudget as decide } from './budget';
import { assertQuestionFits, blockLimits, lendUnusedShares, requiredLines } from './budget-policy';
import type { HistoryItem, MemoryItem } from './context-item';
import { type ListedBlock, memoryLine, SECTION_HEADERS } from './context-layout';
import { type Duplicate, duplicatesAmong, summaryLines, summaryLinesSaidElsewhere } from './duplicates';
import { type BudgetReport, type NumberedItem, step, type TurnState } from './state';
import { countTokens, MESSAGE_OVERHEAD_TOKENS, modelLimits, type TokenCounter } from './tokens';

/**
 * Chooses what fits: facts, summary, episodes, then the recent window newest first, each block within
 * its floor and cap. Records every item's decision with its exact tokens.
 *
 * The window and the memories never overlap or leave a gap: window messages the kept summary
 * stands for are not sent raw (unless the summary itself is dropped), and an episode is dropped
 * only when every message of it is sent raw, judged on the messages actually kept, not on the
 * loaded window. Nor is a fact or an exchange whose words another kept item already says (the same
 * statement told twice, a line the summary quotes: lib/memory/context/duplicates.ts), nor a line of the
 * summary another sent item says. Setting such items aside frees room for more, so the budget is
 * fitted again until nothing changes.
 */
const KIND_NAMES: Record<MemoryItem['kind'], string> = { fact: 'a fact', summary: 'the summary', episode: 'an earlier exchange' };

type Reads = 'config' | 'models' | 'question' | 'history' | 'summaryCovers' | 'candidates';

export const fitToBudgetStep = step({
  name: 'fit_to_budget',
  reads: ['config', 'models', 'question', 'history', 'summaryCovers', 'candidates'] satisfies Reads[],
  writes: ['budget', 'numbered', 'keptHistory'],
  run(state) {
    assertQuestionFits(state.config, state.models.chatModelId, state.question);
    const { encoding } = modelLimits(state.config, state.models.chatModelId);
    const count: TokenCounter = (text) => countTokens(text, encoding);
    const fit = settle(state, state.candidates, count);
    // The summary as sent leaves out its lines another sent item says, when the budget fitted again
    // with the shorter summary still sends every item that says them (else it is sent whole).
    const summary = fit.numbered.find((item) => item.kind === 'summary');
    const leftOut = summary ? summaryLinesSaidElsewhere(summary, fit.numbered) : [];
    if (!summary || leftOut.length === 0) return fit;
    const skipped = new Set(leftOut.map(({ line }) => line));
    const text = summaryLines(summary.text)
      .filter((_, i) => !skipped.has(i))
      .join('\n');
    const shorter = settle(
      state,
      state.candidates.map((c) => (c.key === summary.key ? { ...c, text } : c)),
      count,
    );
    const numberOf = new Map(shorter.numbered.map((item) => [item.key, item.n]));
    if (!numberOf.has(summary.key) || leftOut.some(({ of }) => !numberOf.has(of.key))) return fit;
    const saidIn = [...new Set(leftOut.map(({ of }) => `[${numberOf.get(of.key)}]`))];
    const note = `${leftOut.length === 1 ? 'one of its lines is' : `${leftOut.length} of its lines are`} not sent: ${saidIn.join(', ')} already ${saidIn.length === 1 ? 'says' : 'say'} ${leftOut.length === 1 ? 'it' : 'them'}`;
    const decisions = shorter.budget.decisions.map((d) => (d.key === summary.key ? { ...d, reason: `${d.reason}; ${note}` } : d));
    return { ...shorter, budget: { ...shorter.budget, decisions } };
  },
});

/**
 * Fits the budget until nothing changes: an exchange sent raw in the window, or saying what another
 * sent item says, is set aside and the rest fitted again; each pass sets aside at least one item.
 */
function settle(state: Pick<TurnState, Reads>, candidates: MemoryItem[], count: TokenCounter) {
  const covered = new Set(state.summaryCovers);
  // Candidates never sent, with why: their messages are sent raw, or another kept item says the same.
  const setAside = new Map<string, string>();
  const repeats = new Map<string, Duplicate>();
  let rawHistory = state.history.filter((m) => !covered.has(m.id));
  const refit = () =>
    fitOnce(
      state,
      candidates.filter((c) => !setAside.has(c.key)),
      rawHistory,
      candidates.filter((c) => setAside.has(c.key)).map((item) => ({ item, reason: setAside.get(item.key)! })),
      count,
    );
  let fit = refit();
  for (;;) {
    if (covered.size > 0 && rawHistory.length < state.history.length && !fit.numbered.some((item) => item.kind === 'summary')) {
      rawHistory = state.history; // the summary did not fit: its messages go raw after all
      fit = refit();
      continue;
    }
    const sentRaw = new Set(fit.keptHistory.flatMap((item) => item.sourceMessageIds));
    const inWindow = candidates.filter(
      (c) => c.block === 'episodes' && !setAside.has(c.key) && c.sourceMessageIds.every((id) => sentRaw.has(id)),
    );
    for (const item of inWindow) setAside.set(item.key, IN_WINDOW_REASON);
    const repeated = inWindow.length > 0 ? [] : duplicatesAmong(fit.numbered).filter(({ item }) => item.kind !== 'summary');
    for (const repeat of repeated) {
      setAside.set(repeat.item.key, alreadySaidReason(repeat.part, `${KIND_NAMES[repeat.of.kind]} that is sent`));
      repeats.set(repeat.item.key, repeat);
    }
    if (inWindow.length === 0 && repeated.length === 0) return namingRepeated(fit, repeats);
    fit = refit();
  }
}

/** A repeat's reason names the number the item that says it is sent as. */
function namingRepeated(fit: ReturnType<typeof fitOnce>, repeats: Map<string, Duplicate>) {
  const numberOf = new Map(fit.numbered.map((item) => [item.key, item.n]));
  const decisions = fit.budget.decisions.map((d) => {
    const repeat = repeats.get(d.key);
    const n = repeat && numberOf.get(repeat.of.key);
    return repeat && n ? { ...d, reason: alreadySaidReason(repeat.part, `${KIND_NAMES[repeat.of.kind]} sent as [${n}]`) } : d;
  });
  return { ...fit, budget: { ...fit.budget, decisions } };
}

/** One pass of the budget over the given memory candidates and window messages. */
function fitOnce(
  state: Pick<TurnState, Reads>,
  candidates: MemoryItem[],
  window: TurnState['history'],
  setAside: Array<{ item: MemoryItem; reason: string }>,
  count: TokenCounter,
) {
  const { config, models } = state;
  const limits = modelLimits(config, models.chatModelId);
  const required = requiredLines(config, limits, state.question, count);

  // Memory items are priced at provisional numbers in priority order (the budget renumbers the kept
  // ones). Facts that share nothing with the question (recall_facts: related false) are placed late.
  const listed = (['facts', 'summary', 'episodes'] as ListedBlock[]).flatMap((block) => candidates.filter((c) => c.block === block));
  const unrelated = listed.filter(isUnrelated);
  const memory = listed.filter((item) => !isUnrelated(item));
  const history = [...window].reverse().map(historyItem);
  const byKey = new Map(listed.map((item) => [item.key, item]));
  const lineTokens = (key: string, n: number) => count(memoryLine(n, byKey.get(key)!.text));
  const blocks = Object.fromEntries(BLOCK_PRIORITY.map((b) => [b, [] as BudgetItem[]])) as Record<BlockName, BudgetItem[]>;
  for (const [i, item] of memory.entries()) blocks[item.block].push({ key: item.key, tokens: lineTokens(item.key, i + 1) });
  blocks.history = history.map((item) => ({ key: item.key, tokens: count(item.text) + MESSAGE_OVERHEAD_TOKENS }));

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
    late: {
      why: 'shares nothing with the question',
      blocks: { facts: unrelated.map((item, i) => ({ key: item.key, tokens: lineTokens(item.key, memory.length + i + 1) })) },
    },
    numbering: { blocks: ['facts', 'summary', 'episodes'], tokensAt: lineTokens },
  });
  // Only the required lines alone can overflow the budget, and the step refused such a question first.
  if (!outcome.ok) throw new Error('the required lines exceed the budget');

  const numbered: NumberedItem[] = outcome.lines.map(({ key, n, tokens }) => ({ ...byKey.get(key)!, n, tokens }));
  const kept = new Set(outcome.decisions.filter((d) => d.kept).map((d) => d.key));
  const keptHistory = history.filter((item) => kept.has(item.key)).reverse();
  const decisions: BudgetReport['decisions'] = [
    ...required.map((line) => ({ ...line, block: 'required' as const, kept: true as const })),
    ...(['facts', 'summary', 'episodes'] as ListedBlock[])
      .filter((block) => numbered.some((item) => item.block === block))
      .map((block) => ({ key: `header:${block}`, block, tokens: headerTokens[block], kept: true, reason: `${block} section header` })),
    ...outcome.decisions,
    ...setAside.map(({ item, reason }) => ({ key: item.key, block: item.block, tokens: 0, kept: false, reason })),
  ];
  const byBlock = { required: outcome.requiredTokens, ...outcome.used };
  return {
    budget: { budget: limits.budget, limits, total: outcome.total, byBlock, decisions },
    numbered,
    keptHistory,
  } satisfies Partial<TurnState>;
}

/** A fact that shares nothing with the question (recall_facts): placed after everything else. */
const isUnrelated = (item: MemoryItem) => item.kind === 'fact' && !item.meta.related;

const historyItem = (m: TurnState['history'][number]): HistoryItem => ({
  key: `message:${m.id}`,
  kind: 'history',
  block: 'history',
  text: m.content,
  role: m.role,
  sourceMessageIds: [m.id],
});
