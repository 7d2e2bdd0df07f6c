import { describe, expect, it } from 'vitest';
import { addFact, searchFacts } from '@/db/facts';
import { createGuestUser } from '@/db/users';
import { searchKeywords } from '@/lib/memory/keywords';
import { syncSearchIndex } from '@/lib/memory/search-index-sync';
import { cjkTerms } from '@/lib/text/search-terms';
import { withOwnDatabase } from '@/tests/support/own-database';

// Re-indexing reaches every stored row, of every user: this file has a database of its own.
withOwnDatabase();

function unit(i: number): number[] {
  const vector = new Array<number>(512).fill(0);
  vector[i] = 1;
  return vector;
}

describe('rows indexed before the bilingual bridge', () => {
  it('are re-indexed with the terms computed today, once', async () => {
    const user = await createGuestUser();
    const write = { userId: user.id, conversationId: null, source: null, actor: 'test' };
    // As a row written before the bridge: its CJK terms only.
    for (const [i, content] of ['我每天早上骑自行车上班', '我妹妹在医院当护士'].entries())
      await addFact(write, { slot: 'statement', content, value: content, indexTerms: cjkTerms(content), embedding: unit(i) });
    const found = async () =>
      (await searchFacts({ userId: user.id, embedding: [], keywords: searchKeywords('How do I get to work, by bicycle?'), k: 5 })).map(
        (hit) => hit.fact.content,
      );
    expect(await found()).toEqual([]);

    const lines: string[] = [];
    expect(await syncSearchIndex((line) => lines.push(line))).toEqual([{ table: 'facts', reindexed: 2 }]);
    expect(await found()).toEqual(['我每天早上骑自行车上班']);
    expect(await syncSearchIndex(() => {})).toEqual([]);
  });
});
