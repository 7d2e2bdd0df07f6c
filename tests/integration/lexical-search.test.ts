import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { searchEpisodes } from '@/db/episodes';
import { addFact, searchFacts } from '@/db/facts';
import { EXACT_SEARCH_MAX_ROWS, explainHybridSearch } from '@/db/hybrid-search';
import { EMBEDDING_SIZE } from '@/db/schema';
import { createGuestUser } from '@/db/users';
import { toVectorLiteral } from '@/db/vector';
import { searchKeywords } from '@/lib/memory/keywords';
import { documentTerms } from '@/lib/text/search-terms';
import { importTurns } from '../support/memory';

/**
 * The lexical half of recall: terms normalised in TypeScript (words stemmed, Chinese segmented with
 * Intl.Segmenter plus bigrams), looked up in the (user_id, search_terms) GIN index. Searched here
 * with no query vector, so only the lexical half can find anything.
 */

async function lexicalEpisodes(userId: string, question: string) {
  return searchEpisodes({ userId, conversationId: null, embedding: [], keywords: searchKeywords(question), k: 5, excludeMessageIds: [] });
}

const unitVector = (axis: number) => Array.from({ length: EMBEDDING_SIZE }, (_, i) => (i === axis ? 1 : 0));

describe('lexical search through the index', () => {
  it('finds a one-character Chinese word the segmenter cuts out, and a word inside a longer one', async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [
      ['家里养了一只猫，整天趴在窗台上晒太阳。', '听起来它过得很惬意。'],
      ['周末我们一家去颐和园划船了。', '那里的湖面很开阔。'],
      ['北京市的冬天又干又冷。', '记得多喝水。'],
      ['最近在学做意大利面。', '可以先从番茄酱开始。'],
    ]);
    const cat = await lexicalEpisodes(user.id, '我的猫呢？');
    expect(cat[0]?.content).toContain('猫');
    const park = await lexicalEpisodes(user.id, '颐和园好玩吗');
    expect(park[0]?.content).toContain('颐和园');
    // "北京" is a word of its own in the question and part of "北京市" in the memory: the bigram meets it.
    const city = await lexicalEpisodes(user.id, '北京冷不冷？');
    expect(city[0]?.content).toContain('北京市');
    for (const hits of [cat, park, city]) expect(hits[0].lexicalRank).toBe(1);
  });

  it('matches English words by their light stem, case aside', async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [
      ['My uncle DIRECTED two short films about lighthouses.', 'What a craft.'],
      ['I repaint old bicycles on weekends.', 'Fun hobby.'],
    ]);
    const hits = await lexicalEpisodes(user.id, 'Which director made lighthouse films?');
    expect(hits[0]?.content).toContain('lighthouses');
    expect(hits.some((h) => h.content.includes('bicycles'))).toBe(false);
  });

  it("never returns another user's rows, though they hold the same words", async () => {
    const [alice, bob] = [await createGuestUser(), await createGuestUser()];
    const write = (userId: string) => ({ userId, conversationId: null, source: null, actor: 'test' });
    for (const [i, user] of [alice, bob].entries()) {
      await addFact(write(user.id), {
        slot: 'statement',
        content: `我的侄子在杭州开了一家茶馆 (${i})`,
        searchTerms: documentTerms(`我的侄子在杭州开了一家茶馆 (${i})`),
        value: 'x',
        embedding: unitVector(i),
      });
      await addFact(write(user.id), {
        slot: 'statement',
        content: `My nephew runs a teahouse in Hangzhou (${i})`,
        searchTerms: documentTerms(`My nephew runs a teahouse in Hangzhou (${i})`),
        value: 'x',
        embedding: unitVector(i + 2),
      });
    }
    for (const [i, user] of [alice, bob].entries()) {
      for (const question of ['杭州的茶馆', 'teahouse in Hangzhou']) {
        const hits = await searchFacts({ userId: user.id, embedding: [], keywords: searchKeywords(question), k: 10 });
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.every((h) => h.fact.userId === user.id && h.fact.content.endsWith(`(${i})`))).toBe(true);
      }
    }
  });

  it("reads the lexical index at scale; a small user's vector half never walks the shared HNSW graph", async () => {
    const [big, small] = [await createGuestUser(), await createGuestUser()];
    // The big user: more facts than are ever searched exactly, each with words of its own.
    await getSql()`
      insert into facts (user_id, slot, content, value, search_terms, embedding)
      select ${big.id}, 'statement', 'note ' || i, 'note ' || i, array['note', 'n' || i], ${toVectorLiteral(unitVector(7))}::vector
      from generate_series(1, ${EXACT_SEARCH_MAX_ROWS + 500}) as i`;
    for (const user of [big, small]) {
      await addFact(
        { userId: user.id, conversationId: null, source: null, actor: 'test' },
        {
          slot: 'statement',
          content: '我们在杭州的茶馆聊到很晚',
          value: 'x',
          searchTerms: documentTerms('我们在杭州的茶馆聊到很晚'),
          embedding: unitVector(5),
        },
      );
    }
    // Analysed statistics, as a long-running database has them: the plan must still use the indexes.
    await getSql()`analyze facts`;
    const plan = (userId: string) =>
      explainHybridSearch({
        table: 'facts',
        userId,
        scope: sql`e.user_id = ${userId} and e.status = 'active'`,
        embedding: unitVector(5),
        keywords: searchKeywords('杭州茶馆'),
        k: 5,
        minSimilarity: -1,
      });
    // A branch the one-time filter never runs may be planned any way: what is read is what counts.
    const executedSeqScans = (text: string) =>
      text.split('\n').filter((line) => /Seq Scan on facts/u.test(line) && !line.includes('never executed'));
    const bigPlan = await plan(big.id);
    expect(bigPlan).toMatch(/Bitmap Index Scan on facts_user_search_terms_idx/u);
    expect(executedSeqScans(bigPlan)).toEqual([]);
    // (Whether the big user's vector half walks the HNSW graph or reads its own rows by the user
    // index is the planner's choice on the statistics of the moment: not asserted.)
    const graphLines = (text: string) => text.split('\n').filter((line) => line.includes('facts_embedding_idx'));
    const smallPlan = await plan(small.id);
    expect(executedSeqScans(smallPlan)).toEqual([]);
    expect(graphLines(smallPlan).every((line) => line.includes('never executed'))).toBe(true);
  });
});
