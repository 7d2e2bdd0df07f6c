import { describe, expect, it } from 'vitest';
import { POST as undo } from '@/app/api/corrections/[id]/undo/route';
import { DELETE as deleteOne } from '@/app/api/facts/[id]/route';
import { POST as addFact, DELETE as deleteItem, PATCH as editItem, GET as listFacts } from '@/app/api/facts/route';
import { getSql } from '@/db/client';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import { type Client, newClient, params } from '@/tests/support/app';
import { importTurns, postTurnSettled } from '@/tests/support/memory';

// One statement is one memory item: the facts one sentence gave (a fact per kind, or several values
// of one kind) are listed once on /memory, with every kind, counted and paged as one; editing or
// deleting the item acts on each of its facts, as one change with one undo.

type Item = { id: string; ids: string[]; kinds: string[]; content: string; slot: string; status: string; sources: unknown[] };
type Page = { facts: Item[]; nextCursor: string | null; total: number };

async function page(client: Client, query = '?status=active'): Promise<Page> {
  const response = await listFacts(client.request(`/api/facts${query}`));
  expect(response.status).toBe(200);
  return response.json();
}

const rows = async (userId: string) =>
  (await getSql()`select id, slot, content from facts where user_id = ${userId} and status = 'active' order by slot`) as unknown as Array<{
    id: string;
    slot: string;
    content: string;
  }>;

async function learn(client: Client, said: string) {
  const conversationId = await importTurns(client.user.id, [[said, 'Noted.']]);
  await postTurnSettled(client.user.id);
  return conversationId;
}

describe('a statement that gives several facts is one item', () => {
  it('English: a sentence read as family and home is listed once with both kinds; deleting it forgets both', async () => {
    const client = await newClient();
    await learn(client, 'Me and my wife Ingrid live in Ghent.');
    const facts = await rows(client.user.id);
    expect(facts.map((f) => f.slot)).toEqual(['family', 'location']);
    expect(new Set(facts.map((f) => f.content))).toEqual(new Set(['Me and my wife Ingrid live in Ghent']));

    const listed = await page(client);
    expect(listed.total).toBe(1);
    expect(listed.facts).toHaveLength(1);
    const [item] = listed.facts;
    // Kinds in the order of the kinds list (home before family); ids of both facts.
    expect(item).toMatchObject({ content: 'Me and my wife Ingrid live in Ghent', kinds: ['location', 'family'] });
    expect(item.ids.toSorted()).toEqual(facts.map((f) => f.id).toSorted());
    expect(item.sources).toHaveLength(1);

    const response = await deleteItem(client.request('/api/facts', { method: 'DELETE', body: { ids: item.ids } }));
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.deleted.toSorted()).toEqual(item.ids.toSorted());
    expect(result.undo).toMatchObject({ id: expect.any(String) });
    expect(await rows(client.user.id)).toEqual([]);
    expect(await page(client)).toMatchObject({ facts: [], total: 0 });
    const context = await previewContext({ userId: client.user.id, conversationId: await learn(client, 'Hello.') }, 'Where do I live?');
    expect(contextText(context)).not.toContain('Ghent');

    // One change: its undo brings both kinds back, still one item.
    expect(
      (await undo(client.request(`/api/corrections/${result.undo.id}/undo`, { method: 'POST' }), params({ id: result.undo.id }))).status,
    ).toBe(200);
    expect((await page(client)).facts.map((f) => f.kinds)).toEqual([['location', 'family']]);
  });

  it('English: editing the item corrects the text of each of its facts, as one change', async () => {
    const client = await newClient();
    await learn(client, 'My husband Arjun and I moved to Bergen in March.');
    const [item] = (await page(client)).facts;
    expect(item.kinds).toEqual(['location', 'family']);

    const content = 'My husband Arjun and I moved to Trondheim in March';
    const response = await editItem(client.request('/api/facts', { method: 'PATCH', body: { ids: item.ids, content } }));
    expect(response.status).toBe(200);
    const edited = await response.json();
    expect(edited.facts.map((f: Item) => f.content)).toEqual([content, content]);
    expect((await rows(client.user.id)).map((f) => f.content)).toEqual([content, content]);
    expect((await page(client)).facts).toMatchObject([{ content, kinds: ['location', 'family'] }]);
    // One undo for the whole item: both facts read as before.
    await undo(client.request(`/api/corrections/${edited.undo.id}/undo`, { method: 'POST' }), params({ id: edited.undo.id }));
    expect((await rows(client.user.id)).map((f) => f.content)).toEqual([
      'My husband Arjun and I moved to Bergen in March',
      'My husband Arjun and I moved to Bergen in March',
    ]);
  });

  it('Chinese: a fact added by hand and the same words learned from an import are one item with both kinds', async () => {
    const client = await newClient();
    const added = await addFact(client.request('/api/facts', { body: { content: '我住在杭州西湖边' } }));
    expect(added.status).toBe(201);
    await learn(client, '我住在杭州西湖边。');
    const facts = await rows(client.user.id);
    expect(facts.map((f) => [f.slot, f.content])).toEqual([
      ['location', '我住在杭州西湖边'],
      ['statement', '我住在杭州西湖边'],
    ]);

    const listed = await page(client, `?status=active&q=${encodeURIComponent('西湖')}`);
    expect(listed.total).toBe(1);
    expect(listed.facts).toMatchObject([{ content: '我住在杭州西湖边', kinds: ['statement', 'location'] }]);

    const response = await deleteItem(client.request('/api/facts', { method: 'DELETE', body: { ids: listed.facts[0].ids } }));
    expect(response.status).toBe(200);
    expect(await rows(client.user.id)).toEqual([]);
  });

  it('Chinese: one sentence naming two children is one item of one kind; deleting it forgets both facts', async () => {
    const client = await newClient();
    await learn(client, '我有一个女儿和两个儿子。');
    expect((await rows(client.user.id)).map((f) => f.slot)).toEqual(['family', 'family']);
    const listed = await page(client);
    expect(listed).toMatchObject({ total: 1, facts: [{ content: '我有一个女儿和两个儿子', kinds: ['family'] }] });
    expect(listed.facts[0].ids).toHaveLength(2);
    await deleteItem(client.request('/api/facts', { method: 'DELETE', body: { ids: listed.facts[0].ids } }));
    expect(await rows(client.user.id)).toEqual([]);
  });
});

describe('items are counted and paged as one', () => {
  it('a page of one item at a time walks every item once, the total counting items', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [
      ['I am allergic to kiwi.', 'Noted.'],
      ['Me and my brother Tomas live in Kaunas.', 'Nice.'],
      ['我养了一只狗，叫豆豆。', '好的。'],
    ]);
    await postTurnSettled(client.user.id);
    expect(await rows(client.user.id)).toHaveLength(4);
    const seen: Item[] = [];
    let cursor: string | null = null;
    do {
      const next: Page = await page(client, `?status=active&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(next.total).toBe(3);
      seen.push(...next.facts);
      cursor = next.nextCursor;
    } while (cursor && seen.length < 10);
    expect(seen.map((f) => f.kinds)).toHaveLength(3);
    expect(new Set(seen.map((f) => f.content)).size).toBe(3);
    expect(seen.find((f) => f.content.includes('Kaunas'))?.kinds).toEqual(['location', 'family']);
  });
});

describe('the item routes', () => {
  it('act only on the user’s own facts: another user’s ids are not found, and a fact alone keeps its own route', async () => {
    const owner = await newClient();
    await learn(owner, 'Me and my sister Lina live in Riga.');
    const [item] = (await page(owner)).facts;
    const stranger = await newClient();

    const deleting = await deleteItem(stranger.request('/api/facts', { method: 'DELETE', body: { ids: item.ids } }));
    expect(deleting.status).toBe(404);
    const editing = await editItem(
      stranger.request('/api/facts', { method: 'PATCH', body: { ids: item.ids, content: 'I live in Tartu' } }),
    );
    expect(editing.status).toBe(404);
    expect(await rows(owner.user.id)).toHaveLength(2);

    for (const body of [{ ids: [] }, { ids: ['not-a-uuid'] }, { ids: item.ids, extra: true }, {}]) {
      expect((await deleteItem(owner.request('/api/facts', { method: 'DELETE', body }))).status).toBe(400);
    }
    expect((await editItem(owner.request('/api/facts', { method: 'PATCH', body: { ids: item.ids, content: ' ' } }))).status).toBe(400);

    // DELETE /api/facts/:id still forgets one fact: the other kind stays, an item of its own.
    const [first] = item.ids;
    expect((await deleteOne(owner.request(`/api/facts/${first}`, { method: 'DELETE' }), params({ id: first }))).status).toBe(200);
    expect((await rows(owner.user.id)).map((f) => f.id)).toEqual(item.ids.filter((id) => id !== first));
  });
});
