import { describe, expect, it } from 'vitest';
import { createConversation } from '@/db/conversations';
import { searchEpisodes } from '@/db/episodes';
import { addFact, searchFacts } from '@/db/facts';
import { createGuestUser } from '@/db/users';
import type { FactItem } from '@/lib/memory/context/context-item';
import { previewContext } from '@/lib/memory/context/preview';
import { searchKeywords } from '@/lib/memory/keywords';
import { indexTerms } from '@/lib/text/index-terms';
import { importTurns } from '@/tests/support/memory';

// A statement in one language is found by a question in the other through the lexical index alone
// (no query vector): the row is indexed under the other language's words (lib/text/bilingual.ts).

const STATEMENTS = ['我对芒果过敏', "I'm allergic to shellfish", '我的自行车是红色的', 'My brother plays the violin'];

async function userWithFacts() {
  const user = await createGuestUser();
  const write = { userId: user.id, conversationId: null, source: null, actor: 'test' };
  for (const [i, content] of STATEMENTS.entries())
    await addFact(write, { slot: 'statement', content, value: content.toLowerCase(), indexTerms: indexTerms(content), embedding: unit(i) });
  return user;
}

function unit(i: number): number[] {
  const vector = new Array<number>(512).fill(0);
  vector[i] = 1;
  return vector;
}

const lexicalFacts = async (userId: string, question: string) =>
  (await searchFacts({ userId, embedding: [], keywords: searchKeywords(question), k: 5 })).map((hit) => hit.fact.content);

describe('recall across Chinese and English', () => {
  it('finds a Chinese fact by an English question, and an English fact by a Chinese one', async () => {
    const user = await userWithFacts();
    expect(await lexicalFacts(user.id, 'Am I allergic to any fruit?')).toEqual(expect.arrayContaining(['我对芒果过敏']));
    expect((await lexicalFacts(user.id, 'mango allergy'))[0]).toBe('我对芒果过敏');
    expect(await lexicalFacts(user.id, '我对什么过敏？')).toEqual(expect.arrayContaining(["I'm allergic to shellfish", '我对芒果过敏']));
    expect(await lexicalFacts(user.id, '我哥哥拉什么乐器？')).not.toContain('我的自行车是红色的');
    expect((await lexicalFacts(user.id, 'What colour is my bicycle?'))[0]).toBe('我的自行车是红色的');
  });

  it('finds an exchange in one language by a question in the other, through the real recall', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [
      ['我上个月在杭州的茶馆里学会了泡龙井茶。', '听起来很有意思！'],
      ['My grandmother keeps bees in her orchard.', 'Fresh honey must be a treat.'],
      ['The tram to the harbour was late again today.', 'That is annoying.'],
    ]);
    const base = { userId: user.id, conversationId: null, embedding: [], k: 5, excludeMessageIds: [] };
    const found = async (question: string) =>
      (await searchEpisodes({ ...base, keywords: searchKeywords(question) })).map((hit) => hit.content).join('\n');
    expect(await found('Where did I learn to make tea?')).toContain('茶馆');
    expect(await found('我奶奶养蜜蜂吗？')).toContain('bees');

    const state = await previewContext({ userId: user.id, conversationId }, '我奶奶的果园里有什么？');
    const lexical = state.candidates.filter((item) => item.kind === 'episode' && item.lexicalRank !== null);
    expect(lexical.map((item) => item.text).join('\n')).toContain('bees');
  });

  it('brings a fact of the other language into the context a turn assembles', async () => {
    const user = await userWithFacts();
    const { id: conversationId } = await createConversation(user.id);
    const state = await previewContext({ userId: user.id, conversationId }, '我对什么过敏？');
    const facts = state.candidates
      .filter((item): item is FactItem => item.kind === 'fact' && item.lexicalRank !== null)
      .map((item) => item.meta.content);
    expect(facts).toContain("I'm allergic to shellfish");
  });
});
