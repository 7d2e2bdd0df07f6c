import { describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { createConversation } from '@/db/conversations';
import { type EpisodeQuery, searchEpisodes, searchEpisodesAtOnce } from '@/db/episodes';
import { createGuestUser } from '@/db/users';
import { getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { assembleContext } from '@/lib/memory/context/chain';
import { type FactItem, UNRANKED } from '@/lib/memory/context/context-item';
import { previewContext } from '@/lib/memory/context/preview';
import { step, type TurnInput } from '@/lib/memory/context/state';
import { embedTexts } from '@/lib/memory/embed';
import { searchKeywords } from '@/lib/memory/keywords';
import { importTurns } from '@/tests/support/memory';

// A turn's recall waits for the database once: facts, earlier exchanges and the summary are read
// at the same time, and every search of the exchanges (the question, the period it names, each of
// its clauses) is one statement.

/** The statements the database is sent while `work` runs, in order. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const sql = getSql();
  const sent: string[] = [];
  sql.options.debug = (_connection, statement) => {
    sent.push(statement);
  };
  try {
    await work();
  } finally {
    sql.options.debug = false;
  }
  return sent;
}

async function gardener() {
  const user = await createGuestUser();
  const conversationId = await importTurns(user.id, [
    ['My allotment has three raised beds of leeks and one of broad beans.', 'Leeks like a deep, loose soil.'],
    ['Last spring the slugs ate every lettuce seedling I planted.', 'Copper tape around the beds keeps them off.'],
    ['My neighbour Ottilie lends me her rotavator each autumn.', 'Good neighbours are worth a lot on a plot.'],
    ['I store the onions in the shed, plaited and hung from a beam.', 'Dry and airy is what they need.'],
  ]);
  await importTurns(
    user.id,
    [
      ['Which paint do I need for the garden shed door?', 'An exterior wood paint, two coats.'],
      ['The rotavator stalls on wet clay.', 'Wait for a dry week before you dig.'],
    ],
    'another conversation',
  );
  return { user, conversationId };
}

describe('recall as one wait for the database', () => {
  it('several searches in one statement find what each finds alone, in the same order', async () => {
    const { user } = await gardener();
    const [embedding] = await embedTexts(getModels(), ['what do I grow on my plot']);
    const base = { userId: user.id, conversationId: null, k: 6, excludeMessageIds: [], minSimilarity: -1 };
    const queries: EpisodeQuery[] = [
      { ...base, embedding, keywords: searchKeywords('what do I grow on my plot') },
      { ...base, embedding: [], keywords: searchKeywords('rotavator') },
      { ...base, embedding: [], keywords: searchKeywords('slugs lettuce') },
      { ...base, embedding, keywords: searchKeywords('shed'), saidBetween: { from: new Date(Date.now() - 3_600_000), to: new Date() } },
    ];
    let together: Awaited<ReturnType<typeof searchEpisodesAtOnce>> = [];
    const sent = await statementsOf(async () => {
      together = await searchEpisodesAtOnce(queries);
    });
    expect(sent).toHaveLength(1);
    const alone = await Promise.all(queries.map((query) => searchEpisodes(query)));
    expect(together).toEqual(alone);
    expect(together[1].map((hit) => hit.content).join(' ')).toContain('rotavator');
    expect(together[2][0].content).toContain('slugs');
  });

  it("a question with a period and two clauses searches the exchanges in one statement, beside the facts' and the summary's", async () => {
    const { user, conversationId } = await gardener();
    const scope = { userId: user.id, conversationId };
    const question = 'What did I plant last spring, and how do I keep the onions?';
    const sent = await statementsOf(() => previewContext(scope, question));
    // The episodes' statement is the only one that searches the episodes table with the vector and words halves.
    const episodeSearches = sent.filter((statement) => /from episodes e/u.test(statement) && /\bterms\b/u.test(statement));
    expect(episodeSearches).toHaveLength(1);
    // …and it holds the question's search, the period's and each clause's.
    expect(episodeSearches[0].match(/union all/gu)?.length).toBeGreaterThanOrEqual(2);
    const state = await previewContext(scope, question);
    const recalled = state.candidates.filter((c) => c.kind === 'episode').map((c) => c.text);
    expect(recalled.some((text) => text.includes('plaited'))).toBe(true);
    expect(recalled.some((text) => text.includes('slugs'))).toBe(true);
  });

  it("under the default scope one search ranks every conversation; this conversation's exchanges come first", async () => {
    const { user, conversationId } = await gardener();
    const state = await previewContext({ userId: user.id, conversationId }, 'Why does the rotavator stall?');
    const episodes = state.candidates.filter((c) => c.kind === 'episode').filter((c) => c.meta.neighbourOf === undefined);
    const firstElsewhere = episodes.findIndex((c) => c.meta?.conversationId !== conversationId);
    expect(firstElsewhere).toBeGreaterThan(0);
    expect(episodes.slice(firstElsewhere).every((c) => c.meta?.conversationId !== conversationId)).toBe(true);
    expect(episodes.some((c) => c.text.includes('wet clay'))).toBe(true);
  });
});

describe('steps run at once', () => {
  const item = (key: string): FactItem => ({
    key,
    kind: 'fact',
    block: 'facts',
    text: key,
    sourceMessageIds: [],
    ...UNRANKED,
    meta: { factId: key, slot: 'statement', conversationId: null, content: key, related: true },
  });
  /** A question in a new conversation of a new user. */
  async function turnIn(title: string): Promise<TurnInput> {
    const user = await createGuestUser();
    const conversation = await createConversation(user.id, title);
    return {
      scope: { userId: user.id, conversationId: conversation.id },
      requestId: crypto.randomUUID(),
      config: getConfig(),
      models: getModels(),
      question: { id: crypto.randomUUID(), content: 'anything', createdAt: new Date() },
      assistantMessageId: crypto.randomUUID(),
      attempt: 1,
    };
  }
  const delayed = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it('the three recalls start together, and what they add goes in the order the chain lists them', async () => {
    const started: Record<string, number> = {};
    const origin = performance.now();
    const recall = (name: 'recall_facts' | 'recall_episodes' | 'recall_summary', ms: number) =>
      step({
        name,
        reads: ['question'],
        writes: [],
        appends: ['candidates', 'runs'],
        async run() {
          started[name] = performance.now() - origin;
          return delayed(ms, { candidates: [item(name)], runs: [{ kind: 'facts' as const, query: name, topK: 1, candidates: [] }] });
        },
      });
    const state = await assembleContext(await turnIn('timing'), {
      recall_facts: recall('recall_facts', 150),
      recall_episodes: recall('recall_episodes', 50),
      recall_summary: recall('recall_summary', 0),
    });
    expect(state.candidates.map((c) => c.key)).toEqual(['recall_facts', 'recall_episodes', 'recall_summary']);
    expect(state.runs.map((r) => r.query)).toEqual(['recall_facts', 'recall_episodes', 'recall_summary']);
    const spread = Math.max(...Object.values(started)) - Math.min(...Object.values(started));
    expect(spread).toBeLessThan(40);
    const ms = Object.fromEntries(state.trace.map((t) => [t.step, t.ms]));
    expect(ms.recall_facts).toBeGreaterThanOrEqual(145);
    expect(ms.recall_episodes).toBeLessThan(ms.recall_facts);
  });

  it('steps run at once may not read what another of them adds to', async () => {
    const reader = step({ name: 'recall_summary', reads: ['candidates'], writes: [], appends: ['runs'], run: () => ({ runs: [] }) });
    await expect(assembleContext(await turnIn('dependent'), { recall_summary: reader })).rejects.toThrow(
      /recall_summary reads candidates/u,
    );
  });

  it('a step that returns a field it did not declare is refused', async () => {
    const rogue = step({
      name: 'recall_summary',
      reads: [],
      writes: [],
      appends: ['candidates'],
      run: () => ({ candidates: [], warnings: ['not mine'] }) as never,
    });
    await expect(assembleContext(await turnIn('undeclared'), { recall_summary: rogue })).rejects.toThrow(/recall_summary wrote warnings/u);
  });
});
