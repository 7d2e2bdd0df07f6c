/**
 * npm run import -- FILE [--user USER_ID]
 * FILE: { title?, messages: [{ role, content, metadata?, createdAt? }] } or a bare array of messages.
 * Ingests with the given replies (nothing generated) and runs all post-turn work. Uses DATABASE_URL;
 * without it, the embedded database at PGLITE_DIR (the app must not be running meanwhile).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { closeDb } from '../db/client';
import { startEmbeddedDatabase } from '../db/embedded';
import { runMigrations } from '../db/migrate';
import { createGuestUser } from '../db/users';
import { importConversation, importSchema } from '../lib/import';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { user: { type: 'string' } } });
if (positionals.length !== 1) {
  console.error('usage: npm run import -- FILE [--user USER_ID]');
  process.exit(2);
}
const raw = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
const parsed = importSchema.safeParse(Array.isArray(raw) ? { messages: raw } : raw);
if (!parsed.success) {
  console.error(`${positionals[0]}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  process.exit(2);
}

const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedDatabase({ dataDir: process.env.PGLITE_DIR || '.data/pglite', port: 0 });
process.env.DATABASE_URL ||= embedded!.url;
try {
  await runMigrations(process.env.DATABASE_URL);
  const userId = values.user ?? (await createGuestUser()).id;
  const result = await importConversation(userId, parsed.data);
  console.log(JSON.stringify({ userId, ...result, messageIds: result.messageIds.length }, null, 2));
} finally {
  await closeDb();
  await embedded?.stop();
}
