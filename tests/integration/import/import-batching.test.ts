import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb, getSql } from '@/db/client';
import { messages } from '@/db/schema';
import { createGuestUser } from '@/db/users';
import { type ImportInput, importConversation } from '@/lib/import';
import { getModels } from '@/lib/llm';
import { enqueuePostTurn, runDueJobs } from '@/lib/memory/jobs/queue';
import { setEnv } from '@/tests/support/app';

// An import runs its post-turn work batched across the replies (lib/memory/jobs/queue.ts
// runImportedJobs). It must store exactly what running each reply's jobs in turn stores.

type Turn = [string | string[], string];

/** English and Chinese: a name, a move, a diet change, a pet, an allergy, two messages in a row, two requests to forget, and enough turns for several summary refreshes. */
const TURNS: Turn[] = [
  ["Hi, I'm Tomasz Wiercinski and I repair vintage synthesizers for a living.", 'Nice to meet you, Tomasz.'],
  ['I live in Gdansk, close to the old shipyard.', 'Gdansk sounds lovely.'],
  ["I'm vegetarian.", 'Noted, no meat then.'],
  ['My cat Pierogi sleeps on the amplifier.', 'Pierogi has good taste in warm spots.'],
  [['Quick question about soldering.', 'Which flux suits old circuit boards?'], 'Rosin flux is the usual choice.'],
  ['How long should a tip last?', 'A few months with care.'],
  ['I moved to Wroclaw last month.', 'How do you like Wroclaw?'],
  ["I've stopped being vegetarian, I eat meat now.", 'Got it.'],
  ['Which oscilloscope would you buy used?', 'An older analog one is fine to start.'],
  ['Please forget that I have a cat.', 'Done, I will not keep that.'],
  ['The amplifier is warm again.', 'Maybe Pierogi misses it.'],
  ['我叫林晓雯，在杭州做茶叶生意。', '你好，晓雯。'],
  ['我对花生过敏。', '好的，我记住了。'],
  ['今年的春茶怎么样？', '听说品质不错。'],
  ['我搬到苏州了。', '苏州很美。'],
  ['请忘记我对花生过敏这件事。', '已经忘记了。'],
  ['What was the last synth I mentioned?', 'You have not named one yet.'],
  ['A Juno with a dead voice chip arrived today.', 'That chip can be replaced.'],
  ['Where do I find a replacement chip?', 'Specialist parts shops carry them.'],
  ['Thanks, that helps a lot.', 'Glad to help.'],
];

const START = Date.UTC(2024, 4, 1, 9);

/** The conversation as import input, every message with its own time a minute apart. */
function conversation(turns: Turn[]): ImportInput {
  let minute = 0;
  const at = () => new Date(START + 60_000 * minute++).toISOString();
  return {
    title: 'batching',
    messages: turns.flatMap(([asked, answer]) => [
      ...[asked].flat().map((content) => ({ role: 'user' as const, content, createdAt: at() })),
      { role: 'assistant' as const, content: answer, createdAt: at() },
    ]),
  };
}

/** The reference: the same rows stored, then each reply's jobs run in turn, as chatted turns run them. */
async function importTurnByTurn(userId: string, input: ImportInput): Promise<void> {
  for (const reply of await storeAsChatted(userId, input)) await runDueJobs({ messageId: reply });
}

/** The rows stored as chatted turns store them, each reply's jobs enqueued and left due; returns the replies' ids. */
async function storeAsChatted(userId: string, input: ImportInput): Promise<string[]> {
  const [{ id: conversationId }] =
    await getSql()`insert into conversations (user_id, title) values (${userId}, ${input.title!}) returning id`;
  const scope = { userId, conversationId: conversationId as string };
  let lastUserId: string | null = null;
  const replies: string[] = [];
  for (const message of input.messages) {
    const [row]: Array<{ id: string }> = await getDb()
      .insert(messages)
      .values({
        ...scope,
        role: message.role,
        content: message.content,
        parts: [{ type: 'text', text: message.content }],
        status: 'complete',
        replyTo: message.role === 'assistant' ? lastUserId : null,
        model: message.role === 'assistant' ? 'imported' : null,
        createdAt: new Date(message.createdAt!),
      })
      .returning();
    if (message.role === 'user') lastUserId = row.id;
    else {
      await enqueuePostTurn(getDb(), scope, row.id);
      replies.push(row.id);
    }
  }
  return replies;
}

/** Everything post-turn work stored for a user, with message ids replaced by their place in the conversation. */
async function memoryOf(userId: string) {
  const sql = getSql();
  const order = await sql`select id, seq from messages where user_id = ${userId} order by created_at, seq`;
  const place = new Map(order.map((m, i) => [m.id as string, i]));
  const at = (id: string | null) => (id === null ? null : place.get(id));
  const sources =
    await sql`select message_id, fact_id, episode_id, summary_version_id, span_start, span_end from memory_sources where user_id = ${userId}`;
  const linked = (column: string, id: string) =>
    sources
      .filter((s) => s[column] === id)
      .map((s) => `${at(s.message_id)}:${s.span_start ?? ''}-${s.span_end ?? ''}`)
      .sort();
  const facts = await sql<
    Array<Record<string, unknown> & { id: string; status: string; superseded_by: string | null }>
  >`select id, slot, content, value, status, valid_from, valid_to is null as open, superseded_by, embedding::text as embedding from facts where user_id = ${userId} order by valid_from, content`;
  const factKey = new Map(facts.map((f) => [f.id as string, `${f.slot}:${f.value}`]));
  const events =
    await sql`select fact_id, event, old_content, new_content, actor, source_message_id from fact_events where user_id = ${userId}`;
  return {
    episodes: (
      await sql`select id, user_message_id, assistant_message_id, content, embedding::text as embedding, search_vector::text as search_vector, created_at from episodes where user_id = ${userId}`
    )
      .map((e) => ({
        question: at(e.user_message_id),
        reply: at(e.assistant_message_id),
        content: e.content,
        embedding: e.embedding,
        terms: e.search_vector,
        createdAt: e.created_at,
        sources: linked('episode_id', e.id),
      }))
      .sort((a, b) => a.reply! - b.reply!),
    facts: facts.map(({ id, superseded_by, ...f }) => ({
      ...f,
      supersededBy: superseded_by ? factKey.get(superseded_by) : null,
      sources: linked('fact_id', id),
    })),
    factEvents: events
      .map((e) => ({
        fact: factKey.get(e.fact_id) ?? 'removed',
        event: e.event,
        old: e.old_content,
        new: e.new_content,
        actor: e.actor,
        source: at(e.source_message_id),
      }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    summaries: (
      await sql`select content, version, covered_message_count, covered_until_seq, floor_seq from summaries where user_id = ${userId}`
    ).map(({ covered_until_seq, ...s }) => ({
      ...s,
      coveredUntil: order.findIndex((m) => Number(m.seq) === Number(covered_until_seq)),
    })),
    summaryVersions: (
      await sql`select id, version, action, actor, before, after, covered_message_count from summary_versions where user_id = ${userId} order by version`
    ).map(({ id, ...v }) => ({ ...v, sources: linked('summary_version_id', id) })),
    redactions: (
      await sql`select message_id, kind, span_start, span_end, replacement, needle from message_redactions where user_id = ${userId}`
    )
      .map((r) => ({ ...r, message_id: at(r.message_id) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    jobs: (await sql`select status, count(*)::int as n from jobs where user_id = ${userId} group by status`).map(
      (j) => `${j.status}:${j.n}`,
    ),
  };
}

/** Counts the statements sent to the database and the embedding model's calls while `work` runs. */
async function counted(work: () => Promise<unknown>): Promise<{ queries: number; embedCalls: number }> {
  const options = getSql().options as { debug?: unknown };
  let queries = 0;
  options.debug = () => queries++;
  const embed = vi.spyOn(getModels().embedding, 'doEmbed');
  try {
    await work();
  } finally {
    options.debug = false;
  }
  return { queries, embedCalls: embed.mock.calls.length };
}

afterEach(() => {
  vi.restoreAllMocks();
  setEnv({ IMPORT_CHUNK: undefined });
});

describe('a backlog of chatted replies', () => {
  it('run by the worker a stretch at a time, stores the same as each reply run in turn', async () => {
    const input = conversation(TURNS);
    const backlog = await createGuestUser();
    const reference = await createGuestUser();
    await storeAsChatted(backlog.id, input);
    // One slot: a few replies' jobs a round, so that stretches end and begin between rounds too.
    for (let ran = await runDueJobs({ userId: backlog.id }, 1); ran.done + ran.failed > 0; ) {
      expect(ran.failed).toBe(0);
      ran = await runDueJobs({ userId: backlog.id }, 1);
    }
    await importTurnByTurn(reference.id, input);
    // What a request to forget queued again (earlier replies' episodes) the worker runs too, reply by reply here.
    for (let round = 0; round < 3; round++) {
      for (const {
        message_id,
      } of await getSql()`select distinct message_id from jobs where user_id = ${reference.id} and status <> 'done'`)
        await runDueJobs({ messageId: message_id });
    }
    expect(await memoryOf(backlog.id)).toEqual(await memoryOf(reference.id));
  });
});

describe('an imported conversation', () => {
  it('stores the same episodes, facts, summaries, provenance and redactions as its turns run one by one', async () => {
    const input = conversation(TURNS);
    const batched = await createGuestUser();
    const reference = await createGuestUser();
    const result = await importConversation(batched.id, input);
    await importTurnByTurn(reference.id, input);

    expect(result.jobs).toEqual({ done: 3 * TURNS.length, failed: 0 });
    const mine = await memoryOf(batched.id);
    const expected = await memoryOf(reference.id);
    // The case covers what it claims to: supersession, forgetting, several summary versions.
    expect(expected.facts.some((f) => f.status === 'superseded')).toBe(true);
    expect(expected.redactions.length).toBeGreaterThan(0);
    expect(expected.summaryVersions.length).toBeGreaterThanOrEqual(3);
    expect(mine).toEqual(expected);
  });

  it('stores the same when it is stored and remembered a few messages at a time (IMPORT_CHUNK)', async () => {
    setEnv({ IMPORT_CHUNK: '7' });
    const input = conversation(TURNS);
    const batched = await createGuestUser();
    const reference = await createGuestUser();
    const result = await importConversation(batched.id, input);
    await importTurnByTurn(reference.id, input);
    expect(result.jobs).toEqual({ done: 3 * TURNS.length, failed: 0 });
    expect(await memoryOf(batched.id)).toEqual(await memoryOf(reference.id));
  });

  it('keeps its order when times put a later message first', async () => {
    const input = conversation(TURNS.slice(0, 12));
    // The third turn's question is dated before the second turn's: positions, not input order, make the turns.
    [input.messages[2].createdAt, input.messages[4].createdAt] = [input.messages[4].createdAt, input.messages[2].createdAt];
    const batched = await createGuestUser();
    const reference = await createGuestUser();
    await importConversation(batched.id, input);
    await importTurnByTurn(reference.id, input);
    expect(await memoryOf(batched.id)).toEqual(await memoryOf(reference.id));
  });

  it('takes a few statements per turn and one embedding call per kind of memory, however many turns', async () => {
    const turns = Array.from({ length: 4 }, () => TURNS.filter(([asked]) => !/forget|忘记/u.test(String(asked)))).flat();
    const user = await createGuestUser();
    const { queries, embedCalls } = await counted(() => importConversation(user.id, conversation(turns)));
    // Turn by turn it took about 34 statements and one embedding call per episode and per fact.
    expect(queries / turns.length).toBeLessThan(10);
    expect(embedCalls).toBe(2);
  });

  it('leaves the jobs it could not finish due, and their retry stores what the turns would have', async () => {
    const input = conversation(TURNS.slice(0, 8));
    const batched = await createGuestUser();
    const reference = await createGuestUser();
    // The embedder fails the import's call for its episodes (the texts of whole turns).
    const embedding = getModels().embedding;
    const realEmbed = embedding.doEmbed.bind(embedding);
    let failedOnce = false;
    vi.spyOn(embedding, 'doEmbed').mockImplementation(async (options) => {
      if (failedOnce || !options.values[0].startsWith('User:')) return realEmbed(options);
      failedOnce = true;
      throw new Error('embedder unavailable');
    });
    const result = await importConversation(batched.id, input);
    expect(result.jobs).toEqual({ done: 2 * 8, failed: 8 });
    expect(await getSql()`select kind, status from jobs where user_id = ${batched.id} and status <> 'done'`).toEqual(
      Array.from({ length: 8 }, () => ({ kind: 'index_episode', status: 'failed' })),
    );

    // Past the back-off, the worker's run takes them again.
    await getSql()`update jobs set run_after = now() where user_id = ${batched.id}`;
    expect(await runDueJobs({ userId: batched.id })).toEqual({ done: 8, failed: 0 });
    await importTurnByTurn(reference.id, input);
    const mine = await memoryOf(batched.id);
    const expected = await memoryOf(reference.id);
    expect(mine.episodes).toEqual(expected.episodes);
    expect(mine.jobs).toEqual(expected.jobs);
  });
});
