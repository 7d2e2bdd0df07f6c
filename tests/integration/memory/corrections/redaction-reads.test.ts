import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, getSql } from '@/db/client';
import * as provenance from '@/db/provenance';
import { citations, messages, turnRecords } from '@/db/schema';
import * as turns from '@/db/turns';
import { createGuestUser } from '@/db/users';
import { previewContext } from '@/lib/memory/context/preview';
import { correctFact, forgetEverything } from '@/lib/memory/corrections';
import { AUDIT_PAGE_SIZE, memoryItemsOf, redactAuditTrail } from '@/lib/memory/edits/audit-redaction';
import { correctedBy, FORGOTTEN, REDACTED, readRedacted } from '@/lib/memory/redaction';
import { activeFacts, importTurns, postTurnSettled } from '@/tests/support/memory';

// The hot path's reads of redactions stay bounded: the window's are read once per turn, the texts
// a user withdrew are read only when the replies being read quote them, and forget-everything
// redacts turn records page by page.

vi.mock('@/db/provenance', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/db/provenance')>();
  return { ...actual, redactionsOf: vi.fn(actual.redactionsOf), withdrawnTexts: vi.fn(actual.withdrawnTexts) };
});

vi.mock('@/db/turns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/db/turns')>();
  return { ...actual, turnRecordsQuoting: vi.fn(actual.turnRecordsQuoting) };
});

const redactionsOf = vi.mocked(provenance.redactionsOf);
const turnRecordsQuoting = vi.mocked(turns.turnRecordsQuoting);
const withdrawnTexts = vi.mocked(provenance.withdrawnTexts);

beforeEach(() => {
  redactionsOf.mockClear();
  withdrawnTexts.mockClear();
});

async function conversationWith(userId: string, contents: string[]) {
  const conversationId = await importTurns(userId, [['Hello.', 'Hi.']]);
  const rows = await getDb()
    .insert(messages)
    .values(contents.map((content) => ({ userId, conversationId, role: 'user' as const, content })))
    .returning();
  return { conversationId, rows };
}

/** Forgets [start, end) of each message, as a correction stores it. */
async function forget(userId: string, spans: Array<{ messageId: string; spanStart: number; spanEnd: number }>) {
  await provenance.addRedactions(
    getDb(),
    spans.map((s) => ({ ...s, userId, kind: 'forgotten' as const, factId: null, replacement: null, actor: 'test' })),
  );
}

const reply = (userId: string, content: string) => ({ id: crypto.randomUUID(), userId, role: 'assistant' as const, content });

describe("the window's redactions", () => {
  it('are read once per turn, and the window carries a correction instead of the old words', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [['My favourite director is Daniel Okafor.', 'Noted.']]);
    await postTurnSettled(user.id);
    const [fact] = await getSql()`select id from facts where user_id = ${user.id} and status = 'active' and content like '%Okafor%'`;
    await correctFact(user.id, fact.id as string, 'My favourite director is Agnès Varda.', `user:${user.id}`);
    await postTurnSettled(user.id);
    expect((await activeFacts(user.id)).join()).toContain('Varda');

    redactionsOf.mockClear();
    const state = await previewContext({ userId: user.id, conversationId }, 'Who is my favourite director?');
    const window = state.history.map((m) => m.content).join('\n');
    expect(window).toContain(correctedBy('My favourite director is Agnès Varda.'));
    expect(window).not.toContain('Okafor');
    expect(redactionsOf).not.toHaveBeenCalled(); // load_history reads them with the window
  });
});

describe('the texts a user withdrew', () => {
  it('are read only when a reply being read quotes them, however many the user withdrew', async () => {
    const user = await createGuestUser();
    const said = Array.from({ length: 500 }, (_, i) => `My locker code number ${i} is Zq${i}x.`);
    const { rows } = await conversationWith(user.id, said);
    await forget(
      user.id,
      rows.map((m) => ({ messageId: m.id, spanStart: 0, spanEnd: m.content.length })),
    );
    const [{ n }] = await getSql()`select count(*)::int as n from message_redactions where user_id = ${user.id}`;
    expect(n).toBe(500);

    // Before: every reply read all 500 (each joined to its message's text). Now: the one it quotes.
    const quoting = reply(user.id, 'You told me: my locker code number 42 is zq42x. Anything else?');
    expect(await provenance.withdrawnTexts(user.id, [quoting.content])).toHaveLength(1);
    const [read] = await readRedacted([quoting], 'memory');
    expect(read.content).toBe(`You told me: ${FORGOTTEN} Anything else?`);

    const unrelated = reply(user.id, 'Step by step, carefully.');
    expect(await provenance.withdrawnTexts(user.id, [unrelated.content])).toEqual([]);
    expect((await readRedacted([unrelated], 'memory'))[0]).toBe(unrelated);

    // No reply, no read at all.
    withdrawnTexts.mockClear();
    await readRedacted([{ ...rows[0], role: 'user' as const }], 'memory');
    expect(withdrawnTexts).not.toHaveBeenCalled();
  });

  it('match as the replies are searched: case-insensitively, at UTF-16 offsets, in any script', async () => {
    const user = await createGuestUser();
    const said = ['🎉 I moved to Tromsø last week.', 'Über den Wolken wohne ich.', '我妹妹叫林雪。她住在上海。', 'A'];
    const { rows } = await conversationWith(user.id, said);
    const at = (i: number, text: string) => ({
      messageId: rows[i].id,
      spanStart: said[i].indexOf(text),
      spanEnd: said[i].indexOf(text) + text.length,
    });
    await forget(user.id, [at(0, 'I moved to Tromsø'), at(1, 'Über den Wolken'), at(2, '林雪'), at(3, 'A')]);

    const replies = [
      reply(user.id, 'So: i moved to TROMSØ!'),
      reply(user.id, 'über den wolken, ja.'),
      reply(user.id, '你说过林雪住在上海。'),
      reply(user.id, 'A a A'),
    ];
    const read = await readRedacted(replies, 'memory');
    expect(read.map((m) => m.content)).toEqual([`So: ${FORGOTTEN}!`, `${FORGOTTEN}, ja.`, `你说过${FORGOTTEN}住在上海。`, 'A a A']);
  });

  it('stored before the needle column are still read, cut from the message as before', async () => {
    const user = await createGuestUser();
    const { rows } = await conversationWith(user.id, ['My spare key is under the blue flowerpot.']);
    await forget(user.id, [{ messageId: rows[0].id, spanStart: 0, spanEnd: rows[0].content.length }]);
    await getSql()`update message_redactions set needle = null where message_id = ${rows[0].id}`;
    const [read] = await readRedacted([reply(user.id, 'Remember: My spare key is under the blue flowerpot.')], 'memory');
    expect(read.content).toBe(`Remember: ${FORGOTTEN}`);
  });
});

describe('redacting turn records', () => {
  async function records(userId: string, conversationId: string, count: number) {
    const rows = Array.from({ length: count }, (_, i) => ({
      assistantMessageId: crypto.randomUUID(),
      attempt: 1,
      userId,
      conversationId,
      requestId: crypto.randomUUID(),
      record: {
        recalled: [
          { key: `fact:${i}`, kind: 'fact', text: `I keep bees, hive ${i}` },
          { key: `message:${i}`, kind: 'history', text: 'Hello.' },
        ],
      },
    }));
    await getDb().insert(turnRecords).values(rows);
    await getDb()
      .insert(citations)
      .values(
        rows.map((r, i) => ({ ...r, items: (r.record.recalled as unknown[]).slice(0, 1), citedKeys: [`fact:${i}`], retrievalRuns: [] })),
      );
    return rows;
  }

  const unredacted = async (userId: string) => {
    const [row] = await getSql()`
      select (select count(*)::int from turn_records where user_id = ${userId} and record::text like '%I keep bees%') as records,
             (select count(*)::int from citations where user_id = ${userId} and items::text like '%I keep bees%') as citations`;
    return row;
  };

  it('goes page by page and redacts every record and citation, found by text or all of them', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [['Hello.', 'Hi.']]);
    await records(user.id, conversationId, 7);
    const note = { at: new Date().toISOString(), by: 'test', reason: 'test' };

    const texts = ['hive 1', 'hive 4', 'hive 6'];
    expect(await redactAuditTrail(user.id, { needles: texts, keys: [] }, () => ({ texts, keys: [] }), note, 2)).toBe(3);
    expect(await unredacted(user.id)).toEqual({ records: 7, citations: 7 }); // "I keep bees, [redacted]"
    const [{ n }] =
      await getSql()`select count(*)::int as n from turn_records where user_id = ${user.id} and record::text like ${`%${REDACTED}%`}`;
    expect(n).toBe(3);

    turnRecordsQuoting.mockClear();
    expect(await redactAuditTrail(user.id, { needles: [], keys: [], all: true }, memoryItemsOf, note, 2)).toBe(7);
    // Four pages of at most two records, never all seven at once.
    const pages = await Promise.all(turnRecordsQuoting.mock.results.map((r) => r.value as Promise<unknown[]>));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(await unredacted(user.id)).toEqual({ records: 0, citations: 0 });
  });

  it(`forget everything redacts more than one page (${AUDIT_PAGE_SIZE}) of records`, async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [['Hello.', 'Hi.']]);
    await records(user.id, conversationId, AUDIT_PAGE_SIZE + 3);
    turnRecordsQuoting.mockClear();
    const { recordsRedacted } = await forgetEverything(user.id, `user:${user.id}`);
    expect(recordsRedacted).toBe(AUDIT_PAGE_SIZE + 3);
    const pages = await Promise.all(turnRecordsQuoting.mock.results.map((r) => r.value as Promise<unknown[]>));
    expect(pages.map((p) => p.length)).toEqual([AUDIT_PAGE_SIZE, 3]);
    expect(await unredacted(user.id)).toEqual({ records: 0, citations: 0 });
  });
});
