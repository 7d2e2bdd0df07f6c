import { describe, expect, it } from 'vitest';
import { POST as undo } from '@/app/api/corrections/[id]/undo/route';
import { GET as recentChanges } from '@/app/api/corrections/route';
import { DELETE as deleteFact, PATCH as editFact } from '@/app/api/facts/[id]/route';
import { GET as me } from '@/app/api/me/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { PATCH as staffEditFact } from '@/app/api/staff/facts/[id]/route';
import { getSql } from '@/db/client';
import { type Client, newClient, params } from '@/tests/support/app';
import { browser, member } from '@/tests/support/auth';
import { importTurns, postTurnSettled } from '@/tests/support/memory';

// GET /api/corrections: the user's recent changes to memory, in a member's words, with Undo while
// it is theirs to take back. Through the real route handlers.

type Listed = {
  id: string;
  kind: string;
  what: string;
  text?: string;
  previousText?: string;
  at: string;
  by: string;
  reason: string | null;
  undone: boolean;
  undo: { id: string; expiresAt: string } | null;
  blocked: boolean;
};
type Page = { changes: Listed[]; nextCursor: string | null; undoMinutes: number };

const list = async (client: Pick<Client, 'request'>, query = '') => {
  const response = await recentChanges(client.request(`/api/corrections${query}`));
  return { status: response.status, body: (await response.json()) as Page };
};

const call = async (response: Response) => ({ status: response.status, body: await response.json() });

const factId = async (userId: string, words: string) =>
  (await getSql()`select id from facts where user_id = ${userId} and status = 'active' and content like ${`%${words}%`}`)[0]?.id as string;

const messageId = async (userId: string, content: string) =>
  (await getSql()`select id from messages where user_id = ${userId} and content = ${content}`)[0]?.id as string;

/** Internal words, ids and markers that no line a member reads may hold. */
const INTERNAL = /fact_|episode_|summary_|message_|forget_everything|\[corrected by|\[forgotten|\[redacted\]|[0-9a-f]{8}-[0-9a-f]{4}-/u;

describe('GET /api/corrections', () => {
  it('lists each correction newest first in words, shows an edit as it stands, and never names what was deleted', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [
      ['I have a tortoise named Pebble.', 'Sweet.'],
      ['I live in Bergen.', 'Nice.'],
      ['My favourite tea is rooibos.', 'Lovely.'],
    ]);
    await postTurnSettled(client.user.id);
    const pebble = await factId(client.user.id, 'Pebble');
    const bergen = await factId(client.user.id, 'Bergen');
    await call(await deleteFact(client.request(`/api/facts/${pebble}`, { method: 'DELETE' }), params({ id: pebble })));
    await call(
      await editFact(
        client.request(`/api/facts/${bergen}`, { method: 'PATCH', body: { content: 'I live in Tromsø.' } }),
        params({ id: bergen }),
      ),
    );
    const tea = await messageId(client.user.id, 'My favourite tea is rooibos.');
    const removed = await call(await removeMessage(client.request(`/api/messages/${tea}`, { method: 'DELETE' }), params({ id: tea })));
    expect(removed.body.undo).not.toBeNull();
    await postTurnSettled(client.user.id);

    const { status, body } = await list(client);
    expect(status).toBe(200);
    expect(body.undoMinutes).toBe(30);
    const [message, edit, deletion] = body.changes;
    expect(message).toMatchObject({ kind: 'message_remove', what: 'Message deleted', undone: false, undo: removed.body.undo });
    expect(edit).toMatchObject({ kind: 'fact_edit', what: 'Fact edited', text: 'I live in Tromsø.', by: `user:${client.user.id}` });
    expect(deletion).toMatchObject({ kind: 'fact_delete', what: 'Fact deleted', by: `user:${client.user.id}` });
    expect(deletion).not.toHaveProperty('text');
    for (const change of [message, edit, deletion]) expect((change.undo?.expiresAt ?? '') > new Date().toISOString()).toBe(true);
    // Facts the import learned are there too, after them, from memlens; the one deleted or ended is not named.
    const learned = body.changes.filter((c) => c.kind === 'fact_learned');
    expect(learned.length).toBeGreaterThanOrEqual(3);
    expect(learned.every((c) => !c.by.startsWith('user:') && !c.by.startsWith('staff:'))).toBe(true);
    // Each learned fact was touched by a later correction that stands: that one is undone first.
    expect(learned.every((c) => c.undo !== null && c.blocked)).toBe(true);
    expect([message, edit, deletion].map((c) => c.blocked)).toEqual([false, false, false]);
    expect(learned.find((c) => c.text === 'I live in Tromsø.')).toMatchObject({ what: 'Fact learned from your message' });
    const gone = learned.filter((c) => c.text === undefined);
    expect(gone.length).toBeGreaterThanOrEqual(2);
    for (const change of gone) expect(change.what).toBe('Fact learned from your message (deleted since)');
    const everything = JSON.stringify(body);
    expect(everything).not.toContain('Pebble');
    expect(everything).not.toContain('rooibos');
    for (const change of body.changes) expect(`${change.what} ${change.text ?? ''} ${change.previousText ?? ''}`).not.toMatch(INTERNAL);
    expect(body.changes.map((c) => c.at)).toEqual(
      body.changes
        .map((c) => c.at)
        .toSorted()
        .reverse(),
    );
  });

  it('marks an undone change and offers no undo for it, nor for one whose time ran out', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [
      ['My brother is called Ines.', 'Nice.'],
      ['I work at Alvarez Dental.', 'Noted.'],
    ]);
    await postTurnSettled(client.user.id);
    const brother = await factId(client.user.id, 'Ines');
    const work = await factId(client.user.id, 'Alvarez');
    const first = await call(await deleteFact(client.request(`/api/facts/${brother}`, { method: 'DELETE' }), params({ id: brother })));
    const second = await call(await deleteFact(client.request(`/api/facts/${work}`, { method: 'DELETE' }), params({ id: work })));
    const undone = await undo(
      client.request(`/api/corrections/${second.body.undo.id}/undo`, { method: 'POST' }),
      params({ id: second.body.undo.id }),
    );
    expect(undone.status).toBe(200);
    await getSql()`update undoable_changes set expires_at = now() - interval '1 second' where id = ${first.body.undo.id}`;

    const { body } = await list(client);
    const byId = new Map(body.changes.map((c) => [c.id, c]));
    expect(byId.get(second.body.undo.id)).toMatchObject({ undone: true, undo: null, what: 'Fact deleted' });
    expect(byId.get(first.body.undo.id)).toMatchObject({ undone: false, undo: null, what: 'Fact deleted' });
  });

  it('lists a change staff made, with the reason they gave, and no undo for the member', async () => {
    const owner = await member();
    const ownerId = (await (await me(owner.request('/api/me'))).json()).user.id as string;
    await importTurns(ownerId, [['I live in Stavanger.', 'Nice.']]);
    await postTurnSettled(ownerId);
    const staff = await member({ staff: true });
    const id = await factId(ownerId, 'Stavanger');
    const edited = await staffEditFact(
      staff.request(`/api/staff/facts/${id}`, {
        method: 'PATCH',
        body: { content: 'I live in Oslo.', reason: 'The user wrote in to say so' },
      }),
      params({ id }),
    );
    expect(edited.status).toBe(200);

    const { status, body } = await list(owner);
    expect(status).toBe(200);
    const [change] = body.changes;
    expect(change).toMatchObject({
      kind: 'fact_edit',
      text: 'I live in Oslo.',
      reason: 'The user wrote in to say so',
      undo: null,
      undone: false,
    });
    expect(change.by).toMatch(/^staff:/u);
    expect(body.changes.map((c) => c.kind)).toEqual(['fact_edit', 'fact_learned']);
  });

  it('is scoped to the user: another user’s changes never appear, and a cursor of theirs gives nothing', async () => {
    const owner = await newClient();
    const stranger = await newClient();
    await importTurns(owner.user.id, [['I have a cat named Tofu.', 'Cute.']]);
    await importTurns(stranger.user.id, [['I have a dog named Biscuit.', 'Nice.']]);
    await postTurnSettled(owner.user.id);
    await postTurnSettled(stranger.user.id);
    const tofu = await factId(owner.user.id, 'Tofu');
    const deleted = await call(await deleteFact(owner.request(`/api/facts/${tofu}`, { method: 'DELETE' }), params({ id: tofu })));

    const mine = await list(owner);
    const theirs = await list(stranger);
    const ownIds = new Set(mine.body.changes.map((c) => c.id));
    expect(ownIds.has(deleted.body.undo.id)).toBe(true);
    expect(theirs.body.changes.some((c) => ownIds.has(c.id))).toBe(false);
    const [ownerRows, strangerRows] = await Promise.all(
      [owner, stranger].map(
        async (c) => (await getSql()`select count(*)::int as n from undoable_changes where user_id = ${c.user.id}`)[0].n,
      ),
    );
    expect(mine.body.changes).toHaveLength(ownerRows);
    expect(theirs.body.changes).toHaveLength(strangerRows);
    expect(JSON.stringify(theirs.body)).not.toContain('Tofu');
    // The owner's change as a cursor: a stranger's page after it is empty, not the owner's next page.
    const after = await list(stranger, `?cursor=${deleted.body.undo.id}`);
    expect(after).toMatchObject({ status: 200, body: { changes: [], nextCursor: null } });
  });

  it('pages with nextCursor, newest first, each change once', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [
      ['I live in Porto.', 'Nice.'],
      ['My sister is called Anna.', 'Lovely.'],
      ['I work as a nurse.', 'Great.'],
    ]);
    await postTurnSettled(client.user.id);
    const all = (await list(client)).body.changes;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Page } = await list(client, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.changes.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.changes.map((c) => c.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((c) => c.id));
  });

  it('refuses a signed-out caller (401) and a bad cursor or limit (400)', async () => {
    const signedOut = await list(browser());
    expect(signedOut.status).toBe(401);
    const client = await newClient();
    expect((await list(client, '?cursor=not-a-cursor')).status).toBe(400);
    expect((await list(client, '?limit=500')).status).toBe(400);
    expect((await list(client, '?limit=0')).status).toBe(400);
  });
});
