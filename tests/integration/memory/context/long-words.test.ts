import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { POST as addFact } from '@/app/api/facts/route';
import { POST as importRoute } from '@/app/api/import/route';
import { getSql } from '@/db/client';
import { searchEpisodes } from '@/db/episodes';
import { searchFacts } from '@/db/facts';
import { searchKeywords } from '@/lib/memory/keywords';
import { cjkTerms, MAX_TERM_CHARS } from '@/lib/text/search-terms';
import { newClient, readChunks, setEnv } from '@/tests/support/app';
import { importFinished } from '@/tests/support/imports';
import { postTurnSettled } from '@/tests/support/memory';

/**
 * A word far longer than any real one must not break the lexical index: a tsvector lexeme may not
 * exceed 2 kB (Postgres drops a longer word) and a GIN entry about 2.7 kB. A 2,000-letter Cyrillic
 * word is 4,000 bytes. Words are cut to MAX_TERM_CHARS characters where documents and queries are
 * read (CJK terms in TypeScript, other words in SQL), so such a word is stored and still finds itself.
 */
/** A word of `length` letters drawn from `alphabet` by a fixed LCG: no repetition for Postgres to compress away. */
function word(alphabet: string, length: number, seed: number): string {
  const letters = [...alphabet];
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    out += letters[state % letters.length];
  }
  return out;
}
/** Cyrillic and Ethiopic letters (2 and 3 bytes in UTF-8): hundreds of them, so a random word barely compresses. */
const LETTERS = [...Array.from({ length: 0x100 }, (_, i) => 0x400 + i), ...Array.from({ length: 0x180 }, (_, i) => 0x1200 + i)]
  .map((code) => String.fromCodePoint(code))
  .filter((char) => /^\p{L}$/u.test(char) && char.toLowerCase() === char)
  .join('');
const medium = word(LETTERS, 1990, 1);
const huge = word(LETTERS, 20_000, 2);
const hangul = word('한국어글자문장단어사람', 3000, 3);

afterEach(() => setEnv({ MODEL_CONTEXT_WINDOW: undefined }));

describe('a very long word', () => {
  it('is cut to the same CJK term where documents and queries are made', () => {
    const terms = cjkTerms(hangul);
    for (const term of terms) expect([...term].length).toBeLessThanOrEqual(MAX_TERM_CHARS);
    expect(terms.some((term) => [...term].length === MAX_TERM_CHARS && searchKeywords(hangul).cjk.includes(term))).toBe(true);
  });

  it('in a fact added by hand: 201, stored, and found by that word', async () => {
    const client = await newClient();
    for (const content of [medium, `I collect ${hangul.slice(0, 1900)}`]) {
      const response = await addFact(client.request('/api/facts', { body: { content } }));
      expect(response.status).toBe(201);
    }
    const hits = await searchFacts({ userId: client.user.id, embedding: [], keywords: searchKeywords(medium), k: 5 });
    expect(hits.map((h) => h.fact.content)).toContain(medium);
  });

  it('in a chat message: the reply streams and the turn keeps its facts and episode', async () => {
    // The offline model's 8k window would refuse a 20,000-letter message before the index is reached.
    setEnv({ MODEL_CONTEXT_WINDOW: '128000' });
    const client = await newClient();
    const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
    const conversationId = (await created.json()).conversation.id;
    for (const word of [medium, huge]) {
      const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text: `I live in ${word}.` } } }));
      expect(response.status, await response.clone().text()).toBe(200);
      expect((await readChunks(response)).some((c) => c.type === 'finish')).toBe(true);
    }
    await postTurnSettled(client.user.id);
    const jobs = await getSql()`select status, last_error from jobs where user_id = ${client.user.id}`;
    expect(jobs.map((j) => [j.status, j.last_error])).toEqual(jobs.map(() => ['done', null]));
    const episodes = await searchEpisodes({
      userId: client.user.id,
      conversationId,
      embedding: [],
      keywords: searchKeywords(huge),
      k: 5,
      excludeMessageIds: [],
    });
    expect(episodes[0]?.content).toContain(huge);
    const facts = await getSql()`select content from facts where user_id = ${client.user.id} and content like ${`%${huge.slice(0, 50)}%`}`;
    expect(facts).toHaveLength(1);
  });

  it('in an import: done, and that turn keeps its facts and episode', async () => {
    const client = await newClient();
    const messages = [
      { role: 'user', content: `I live in ${huge}.` },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: `My favourite word is ${medium}.` },
      { role: 'assistant', content: 'A long one.' },
    ];
    const response = await importRoute(client.request('/api/import', { body: { title: 'long words', messages } }));
    expect(response.status).toBe(202);
    const body = await importFinished(client, (await response.json()).import.id);
    expect(body.status).toBe('done');
    expect(body.jobs.failed).toBe(0);
    const episodes = await getSql()`select content from episodes where conversation_id = ${body.conversationId} order by created_at`;
    expect(episodes.map((e) => e.content.includes(huge) || e.content.includes(medium))).toEqual([true, true]);
    const facts = await getSql()`select content from facts where user_id = ${client.user.id} and content like ${`%${huge.slice(0, 50)}%`}`;
    expect(facts).toHaveLength(1);
  });
});
