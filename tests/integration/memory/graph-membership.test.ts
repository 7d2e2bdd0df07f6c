import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { addFact, searchFacts } from '@/db/facts';
import { EXACT_SEARCH_MAX_ROWS, explainHybridSearch } from '@/db/hybrid-search';
import { mergeGuestInto } from '@/db/merge-guest';
import { EMBEDDING_SIZE } from '@/db/schema';
import { createGuestUser } from '@/db/users';
import { toVectorLiteral } from '@/db/vector';
import { searchKeywords } from '@/lib/memory/keywords';

// Only a user with more than EXACT_SEARCH_MAX_ROWS rows in a memory table has them in its HNSW
// graph; the database keeps that (migration 0017) whichever way the rows arrive.

/** A unit vector leaning towards `axis`, a little towards `next`: neighbours differ by how much. */
const leaning = (axis: number, next: number, weight: number) =>
  Array.from({ length: EMBEDDING_SIZE }, (_, i) => (i === axis ? 1 : i === next ? weight : 0));

/** `count` facts for the user in one statement, each leaning a little further from axis 1 towards 2. */
async function bulkFacts(userId: string, count: number, label: string) {
  await getSql()`
    insert into facts (user_id, slot, content, value, search_vector, embedding)
    select ${userId}, 'statement', ${label} || ' ' || i, 'x', to_tsvector('english', ${label} || ' ' || i),
           ('[' || array_to_string(array(select case when d = 1 then 1 when d = 2 then i / 10000.0 else 0 end from generate_series(0, ${EMBEDDING_SIZE - 1}) d), ',') || ']')::vector
    from generate_series(1, ${count}) as i`;
}

async function inGraph(userId: string): Promise<{ yes: number; no: number }> {
  const [row] = await getSql()`
    select count(*) filter (where in_graph)::int as yes, count(*) filter (where not in_graph)::int as no from facts where user_id = ${userId}`;
  return { yes: row.yes, no: row.no };
}

const write = (userId: string) => ({ userId, conversationId: null, source: null, actor: 'test' });
const fact = (content: string, embedding: number[]) => ({ slot: 'statement', content, value: 'x', indexTerms: [], embedding });

describe('which rows are in the HNSW graph', () => {
  it("a small user's rows stay out, and their search reads them exactly", async () => {
    const user = await createGuestUser();
    await bulkFacts(user.id, 300, 'tide table');
    await addFact(write(user.id), fact('the lighthouse keeper waves at noon', leaning(1, 2, 0.0005)));
    expect(await inGraph(user.id)).toEqual({ yes: 0, no: 301 });
    const search = { table: 'facts' as const, userId: user.id, scope: sql`e.user_id = ${user.id} and e.status = 'active'` };
    const plan = await explainHybridSearch({
      ...search,
      embedding: leaning(1, 2, 0.0005),
      keywords: searchKeywords('x'),
      k: 3,
      minSimilarity: -1,
    });
    expect(plan.split('\n').filter((line) => line.includes('facts_embedding_idx') && !line.includes('never executed'))).toEqual([]);
    const hits = await searchFacts({ userId: user.id, embedding: leaning(1, 2, 0.0005), keywords: searchKeywords('lighthouse'), k: 3 });
    expect(hits[0].fact.content).toBe('the lighthouse keeper waves at noon');
  });

  it('the statement that takes a user past the bound moves all their rows in; later rows join; the search walks the graph', async () => {
    const user = await createGuestUser();
    const other = await createGuestUser();
    await bulkFacts(user.id, EXACT_SEARCH_MAX_ROWS - 10, 'ferry timetable');
    await bulkFacts(other.id, 50, 'ferry timetable');
    expect((await inGraph(user.id)).yes).toBe(0);
    await bulkFacts(user.id, 20, 'harbour crane');
    expect(await inGraph(user.id)).toEqual({ yes: EXACT_SEARCH_MAX_ROWS + 10, no: 0 });
    expect((await inGraph(other.id)).yes).toBe(0);
    const added = await addFact(write(user.id), fact('the night ferry leaves from pier nine', leaning(1, 2, 0.00005)));
    expect(added.id).toBeTruthy();
    expect(await inGraph(user.id)).toEqual({ yes: EXACT_SEARCH_MAX_ROWS + 11, no: 0 });

    await getSql()`analyze facts`;
    const plan = await explainHybridSearch({
      table: 'facts',
      userId: user.id,
      scope: sql`e.user_id = ${user.id} and e.status = 'active'`,
      embedding: leaning(1, 2, 0.00005),
      keywords: searchKeywords('pier'),
      k: 3,
      minSimilarity: -1,
    });
    expect(plan.split('\n').some((line) => line.includes('facts_embedding_idx') && !line.includes('never executed'))).toBe(true);
    const hits = await searchFacts({ userId: user.id, embedding: leaning(1, 2, 0.00005), keywords: searchKeywords('pier nine'), k: 3 });
    expect(hits[0].fact.content).toBe('the night ferry leaves from pier nine');
    expect(hits.every((hit) => hit.fact.userId === user.id)).toBe(true);
  });

  it("a guest's memories that take a member past the bound move all of the member's rows in", async () => {
    const [guest, member] = [await createGuestUser(), await createGuestUser()];
    await bulkFacts(guest.id, 1200, 'guest note');
    await bulkFacts(member.id, 1200, 'member note');
    await mergeGuestInto(guest.id, member.id, new Set(), 'test');
    expect(await inGraph(member.id)).toEqual({ yes: 2400, no: 0 });
  });

  it("a row written straight into the table (a restore, a script) joins a large user's graph and is found through it", async () => {
    const user = await createGuestUser();
    await bulkFacts(user.id, EXACT_SEARCH_MAX_ROWS + 5, 'quay');
    const target = leaning(7, 8, 0.5);
    await getSql()`insert into facts (user_id, slot, content, value, embedding) values (${user.id}, 'statement', 'the seventh axis', 'x', ${toVectorLiteral(target)}::vector)`;
    const hits = await searchFacts({ userId: user.id, embedding: target, keywords: searchKeywords('nothing shared'), k: 1 });
    expect(hits[0].fact.content).toBe('the seventh axis');
  });
});
