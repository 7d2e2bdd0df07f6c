import { getDb, getSql } from '@/db/client';
import { createConversation } from '@/db/conversations';
import { episodes, facts } from '@/db/schema';
import { searchVector } from '@/db/search-vector';
import { createGuestUser } from '@/db/users';
import { getModels } from '@/lib/llm';
import { embedTexts } from '@/lib/memory/embed';
import { indexTerms } from '@/lib/text/index-terms';
import { progress } from './report';
import { filler, seededRandom, templates, vocabulary } from './synthetic';

const BATCH = 500;
// The same definitions as the migrations (db/schema.ts).
const INDEXES = [
  {
    name: 'episodes_embedding_idx',
    create: 'create index episodes_embedding_idx on episodes using hnsw (embedding vector_cosine_ops) where in_graph',
  },
  {
    name: 'facts_embedding_idx',
    create: 'create index facts_embedding_idx on facts using hnsw (embedding vector_cosine_ops) where in_graph',
  },
  {
    name: 'episodes_user_search_vector_idx',
    create: 'create index episodes_user_search_vector_idx on episodes using gin (user_id, search_vector) with (fastupdate = off)',
  },
  {
    name: 'facts_user_search_vector_idx',
    create: 'create index facts_user_search_vector_idx on facts using gin (user_id, search_vector) with (fastupdate = off)',
  },
];

/**
 * The user seedUser(size, seed) made, when the database already holds it (a kept --data-dir, or a
 * Postgres database seeded before): found by its conversation's title, its words derived again from
 * the seed; else seeded now.
 */
export async function seededUser(size: number, seed: number) {
  const [found] = await getSql()`
    select c.id as conversation_id, c.user_id from conversations c
    where c.title = ${conversationTitle(size)} and (select count(*) from episodes e where e.conversation_id = c.id) = ${size}
    limit 1`;
  if (!found) return seedUser(size, seed);
  progress(`size ${size}: measured as seeded before (conversation ${found.conversation_id})`);
  const user = { id: found.user_id as string };
  const conversation = { id: found.conversation_id as string };
  return { user, conversation, words: seedWords(size, seededRandom(seed)), loadSeconds: 0 };
}

const conversationTitle = (size: number) => `synthetic ${size}`;
const seedWords = (size: number, random: () => number) => vocabulary(Math.max(200, Math.round(Math.sqrt(size) * 20)), random);

/** Bulk-loads N facts and N episodes (with their 2N messages and the facts' sources) for a fresh user, embedding every text. */
async function seedUser(size: number, seed: number) {
  const random = seededRandom(seed);
  const words = seedWords(size, random);
  const user = await createGuestUser();
  const conversation = await createConversation(user.id, conversationTitle(size));
  const sql = getSql();
  const models = getModels();
  const started = performance.now();
  // Bulk load without the HNSW and lexical indexes, then build them once: far faster than row by row.
  for (const index of INDEXES) await sql`drop index if exists ${sql(index.name)}`;
  for (let offset = 0; offset < size; offset += BATCH) {
    const n = Math.min(BATCH, size - offset);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const userTexts = Array.from({ length: n }, () => filler(pick(templates.user), words, random));
    const replyTexts = Array.from({ length: n }, () => filler(pick(templates.reply), words, random));
    const factTexts = Array.from({ length: n }, () => filler(pick(templates.fact), words, random));
    const episodeTexts = userTexts.map((u, i) => `User: ${u}\nAssistant: ${replyTexts[i]}`);
    const vectors = await embedTexts(models, [...episodeTexts, ...factTexts]);
    const base = Date.UTC(2024, 0, 1) + offset * 2000;
    const messageRows = userTexts.flatMap((u, i) => [
      { conversation_id: conversation.id, user_id: user.id, role: 'user', content: u, created_at: new Date(base + i * 2000).toISOString() },
      {
        conversation_id: conversation.id,
        user_id: user.id,
        role: 'assistant',
        content: replyTexts[i],
        created_at: new Date(base + i * 2000 + 1000).toISOString(),
      },
    ]);
    const ids = await sql`insert into messages ${sql(messageRows)} returning id`;
    const rounded = (vector: number[]) => vector.map((v) => Number(v.toFixed(5)));
    await getDb()
      .insert(episodes)
      .values(
        episodeTexts.map((content, i) => ({
          userId: user.id,
          conversationId: conversation.id,
          userMessageId: ids[2 * i].id,
          assistantMessageId: ids[2 * i + 1].id,
          content,
          embedding: rounded(vectors[i]),
          searchVector: searchVector(content, indexTerms(content)),
          createdAt: new Date(base + i * 2000),
        })),
      );
    const factIds = await getDb()
      .insert(facts)
      .values(
        factTexts.map((content, i) => ({
          userId: user.id,
          conversationId: conversation.id,
          slot: 'statement',
          content,
          value: content.toLowerCase(),
          embedding: rounded(vectors[n + i]),
          searchVector: searchVector(content, indexTerms(content)),
        })),
      )
      .returning({ id: facts.id });
    // Each fact stated by its user message, as the fact rules link them: recall reads these sources.
    const sourceRows = factIds.map((fact, i) => ({
      user_id: user.id,
      message_id: ids[2 * i].id,
      fact_id: fact.id,
      span_start: 0,
      span_end: userTexts[i].length,
    }));
    await sql`insert into memory_sources ${sql(sourceRows)}`;
    if ((offset / BATCH) % 20 === 0)
      progress(`  size ${size}: loaded ${offset + n}/${size} (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  progress(`  size ${size}: building the HNSW and lexical indexes`);
  await sql.begin(async (tx) => {
    await tx`set local maintenance_work_mem = '1GB'`;
    for (const index of INDEXES) await tx.unsafe(index.create);
  });
  await sql`analyze messages; analyze episodes; analyze facts; analyze memory_sources`.simple();
  return { user, conversation, words, loadSeconds: (performance.now() - started) / 1000 };
}
