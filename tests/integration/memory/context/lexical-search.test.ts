import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { searchEpisodes } from '@/db/episodes';
import { addFact, factSearch, searchFacts } from '@/db/facts';
import { EXACT_SEARCH_MAX_ROWS, explainHybridSearch, rowStanding } from '@/db/hybrid-search';
import { EMBEDDING_SIZE } from '@/db/schema';
import { createGuestUser } from '@/db/users';
import { toVectorLiteral } from '@/db/vector';
import { searchKeywords } from '@/lib/memory/keywords';
import { indexTerms } from '@/lib/text/index-terms';
import { importTurns } from '@/tests/support/memory';

/**
 * The lexical half of recall: a Postgres tsvector per row (the english configuration over the text,
 * Chinese segmented with Intl.Segmenter plus bigrams under simple), looked up lexeme by lexeme in
 * the (user_id, search_vector) GIN index. Searched here with no query vector, so only the lexical
 * half can find anything.
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

  it('matches English word forms by their Snowball stem, case aside', async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [
      ['Both of my sisters teach violin at the conservatory.', 'A musical family.'],
      ['The teachers at the night school voted to strike.', 'Hope it resolves soon.'],
      ['I have been running along the Landwehr canal before work.', 'Great way to start a day.'],
      ['Mireille studied volcanology in Clermont-Ferrand.', 'Fascinating field.'],
      ['We had dinner with KOFI and his parents.', 'Sounds lovely.'],
      ['I repaint old bicycles on weekends.', 'Fun hobby.'],
    ]);
    const cases: Array<[string, string]> = [
      ['Which sister plays the violin?', 'sisters teach violin'],
      ['What did the teacher vote on?', 'teachers at the night school'],
      ['Where do I run?', 'running along'],
      ['What studies did Mireille do?', 'studied volcanology'],
      ['Who is kofi?', 'KOFI'],
    ];
    for (const [question, expected] of cases) {
      const hits = await lexicalEpisodes(user.id, question);
      expect(hits[0]?.content, question).toContain(expected);
      expect(
        hits.some((h) => h.content.includes('bicycles')),
        question,
      ).toBe(false);
    }
  });

  it('finds nothing for a question of stop words alone', async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [['What did you do about it, and why?', 'I did what I could about it.']]);
    expect(await lexicalEpisodes(user.id, 'What did I do about it?')).toEqual([]);
    expect(await lexicalEpisodes(user.id, '你的呢？')).toEqual([]);
  });

  it('meets a Chinese word the segmenter cut differently in the stored text, and counts the words a row shares', async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [
      ['上周六我在上海市图书馆借了三本小说。', '周末读书很惬意。'],
      ['我表妹在成都开了一家火锅店。', '生意一定很好。'],
    ]);
    // The segmenter keeps "上海市" whole in the memory; the question's "上海" meets it through a bigram.
    const library = await lexicalEpisodes(user.id, '上海有什么好玩的？');
    expect(library[0]?.content).toContain('上海市图书馆');
    expect(library.some((h) => h.content.includes('火锅'))).toBe(false);
    const hotpot = await lexicalEpisodes(user.id, 'Who runs the 火锅店 in 成都?');
    expect(hotpot[0]?.content).toContain('成都');
    expect(hotpot[0].sharedLexemes).toBeGreaterThanOrEqual(2);
    expect(hotpot[0].sharedLexemes).toBeLessThan(hotpot[0].queryLexemes);
  });

  it("explains a row's standing by the query's words as written, whatever their form in the row", async () => {
    const user = await createGuestUser();
    const write = { userId: user.id, conversationId: null, source: null, actor: 'test' };
    const content = 'My sister bakes sourdough for two bakeries in Lyon; 她也在学做月饼。';
    const fact = await addFact(write, {
      slot: 'statement',
      content,
      value: 'x',
      indexTerms: indexTerms(content),
      embedding: unitVector(3),
    });
    const question = 'Which Bakeries does my SISTER supply, and does she bake 月饼?';
    const standing = await rowStanding(factSearch({ userId: user.id, embedding: [], keywords: searchKeywords(question), k: 5 }), fact.id);
    expect(standing.sharedTerms).toEqual(['bake', 'bakeries', 'sister', '月饼']);
    expect(standing.lexicalRank).toBe(1);
    expect(standing.sharedLexemes).toBeLessThan(standing.queryLexemes);
  });

  it("never returns another user's rows, though they hold the same words", async () => {
    const [alice, bob] = [await createGuestUser(), await createGuestUser()];
    const write = (userId: string) => ({ userId, conversationId: null, source: null, actor: 'test' });
    for (const [i, user] of [alice, bob].entries()) {
      await addFact(write(user.id), {
        slot: 'statement',
        content: `我的侄子在杭州开了一家茶馆 (${i})`,
        indexTerms: indexTerms(`我的侄子在杭州开了一家茶馆 (${i})`),
        value: 'x',
        embedding: unitVector(i),
      });
      await addFact(write(user.id), {
        slot: 'statement',
        content: `My nephew runs a teahouse in Hangzhou (${i})`,
        indexTerms: indexTerms(`My nephew runs a teahouse in Hangzhou (${i})`),
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

  it("reads the lexical index at scale, one user's postings beside others', a common word bounded; a small user's vector half never walks the shared HNSW graph", async () => {
    const [big, other, small] = [await createGuestUser(), await createGuestUser(), await createGuestUser()];
    // Two big users: more facts than are ever searched exactly, all sharing a common word, each with a word of its own.
    for (const user of [big, other]) {
      await getSql()`
        insert into facts (user_id, slot, content, value, search_vector, embedding)
        select ${user.id}, 'statement', c, c, to_tsvector('english', c), ${toVectorLiteral(unitVector(7))}::vector
        from generate_series(1, ${EXACT_SEARCH_MAX_ROWS + 1500}) as i, lateral (select 'harbour logbook entry q' || i as c) t`;
    }
    for (const user of [big, small]) {
      await addFact(
        { userId: user.id, conversationId: null, source: null, actor: 'test' },
        {
          slot: 'statement',
          content: '我们在杭州的茶馆聊到很晚',
          value: 'x',
          indexTerms: indexTerms('我们在杭州的茶馆聊到很晚'),
          embedding: unitVector(5),
        },
      );
    }
    // Analysed statistics, as a long-running database has them: the plan must still use the indexes.
    await getSql()`analyze facts`;
    const search = (userId: string, question: string) => ({
      table: 'facts' as const,
      userId,
      scope: sql`e.user_id = ${userId} and e.status = 'active'`,
      embedding: unitVector(5),
      keywords: searchKeywords(question),
      k: 5,
      minSimilarity: -1,
    });
    // A branch the one-time filter never runs may be planned any way: what is read is what counts.
    const executedSeqScans = (text: string) =>
      text.split('\n').filter((line) => /Seq Scan on facts/u.test(line) && !line.includes('never executed'));
    const bigPlan = await explainHybridSearch(search(big.id, '杭州茶馆 harbour logbook q1234'));
    expect(bigPlan).toMatch(/Bitmap Index Scan on facts_user_search_vector_idx/u);
    expect(executedSeqScans(bigPlan)).toEqual([]);
    // The common words are in each of the user's 3,500 rows: each lookup stops at its bound.
    const heapRows = [...bigPlan.matchAll(/Bitmap Heap Scan on facts e.*\(actual rows=(\d+)/gu)].map((m) => Number(m[1]));
    expect(heapRows.length).toBeGreaterThan(0);
    expect(Math.max(...heapRows)).toBeLessThanOrEqual(1000);
    // The rare word ranks its row first, and nothing of the other user comes back.
    const hits = await searchFacts({ userId: big.id, embedding: [], keywords: searchKeywords('harbour logbook q1234'), k: 5 });
    expect(hits[0]?.fact.content).toBe('harbour logbook entry q1234');
    expect(hits.every((h) => h.fact.userId === big.id)).toBe(true);
    // (Whether the big user's vector half walks the HNSW graph or reads its own rows by the user
    // index is the planner's choice on the statistics of the moment: not asserted.)
    const graphLines = (text: string) => text.split('\n').filter((line) => line.includes('facts_embedding_idx'));
    const smallPlan = await explainHybridSearch(search(small.id, '杭州茶馆'));
    expect(executedSeqScans(smallPlan)).toEqual([]);
    expect(graphLines(smallPlan).every((line) => line.includes('never executed'))).toBe(true);
  });
});
