import { afterAll, describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { setEmbeddings } from '@/db/embedding-rows';
import { createGuestUser } from '@/db/users';
import { getModels } from '@/lib/llm';
import { embedLocally } from '@/lib/llm/local-embedder';
import { checkStoredEmbeddings, syncStoredEmbeddings } from '@/lib/memory/embedder-sync';
import { setEnv } from '@/tests/support/app';
import { importTurns } from '@/tests/support/memory';
import { withOwnDatabase } from '@/tests/support/own-database';

// Stored vectors of one embedder are noise to another's queries: a switch must reach every stored row,
// of every user, so this file has a database of its own (re-embedding the shared one would reach into
// the files running beside it).
withOwnDatabase();
afterAll(() => setEnv({ OFFLINE_EMBEDDER: undefined }));

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

async function storedVector(table: 'episodes' | 'facts', content: string): Promise<number[]> {
  const [row] = await getSql()`select embedding::text as embedding from ${getSql()(table)} where content like ${`%${content}%`} limit 1`;
  return JSON.parse(row.embedding as string) as number[];
}

describe('stored vectors follow the configured embedder', () => {
  it('finds rows made by another embedder, re-embeds them all, and then leaves them alone', async () => {
    setEnv({ OFFLINE_EMBEDDER: 'hashing' });
    const user = await createGuestUser();
    await importTurns(user.id, [
      ['My workshop is in an old tram depot.', 'That sounds like a roomy place to work.'],
      ['I grew up speaking Welsh at home.', 'Do you still speak it with your family?'],
    ]);
    const hashed = await storedVector('episodes', 'tram depot');

    setEnv({ OFFLINE_EMBEDDER: 'sentence-encoder' });
    const models = getModels();
    const before = await checkStoredEmbeddings(models);
    expect(before.find((c) => c.table === 'episodes')?.matches).toBe(false);

    const lines: string[] = [];
    const done = await syncStoredEmbeddings(models, (line) => lines.push(line));
    expect(done.find((d) => d.table === 'episodes')?.reembedded).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => line.includes('re-embedding with use-lite+hash'))).toBe(true);

    const encoded = await storedVector('episodes', 'tram depot');
    expect(cosine(encoded, hashed)).toBeLessThan(0.99);
    expect((await checkStoredEmbeddings(models)).every((c) => c.matches)).toBe(true);
    expect(await syncStoredEmbeddings(models, (line) => lines.push(line))).toEqual([]);
  });

  it('notices a re-embedding cut off before it reached the highest ids', async () => {
    setEnv({ OFFLINE_EMBEDDER: 'sentence-encoder' });
    const models = getModels();
    const user = await createGuestUser();
    await importTurns(user.id, [['Our allotment grows rhubarb and leeks.', 'Both love cold weather.']]);
    await syncStoredEmbeddings(models, () => {});
    // The row a cut-off walk in id order would have reached last still holds another embedder's vector.
    const [last] = await getSql()`select id::text as id, content from episodes order by id desc limit 1`;
    await setEmbeddings('episodes', [{ id: last.id as string, embedding: embedLocally(last.content as string, 512) }]);
    expect((await checkStoredEmbeddings(models)).find((c) => c.table === 'episodes')?.matches).toBe(false);
  });
});
