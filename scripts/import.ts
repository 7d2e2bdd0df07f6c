/**
 * npm run import -- FILE [--user USER_ID]
 * FILE: { title?, messages: [{ role, content, metadata?, createdAt? }] } or a bare array of messages.
 * Ingests with the given replies (nothing generated) and runs all post-turn work. Uses DATABASE_URL;
 * without it, the embedded database at PGLITE_DIR (the app must not be running meanwhile).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createGuestUser } from '../db/users';
import { importConversation, importSchema } from '../lib/import';
import { appDataDir, withDatabase } from './with-database';

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

await withDatabase(
  async () => {
    const userId = values.user ?? (await createGuestUser()).id;
    const result = await importConversation(userId, parsed.data);
    console.log(JSON.stringify({ userId, ...result, messageIds: result.messageIds.length }, null, 2));
  },
  { dataDir: appDataDir() },
);
