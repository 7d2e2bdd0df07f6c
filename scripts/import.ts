/**
 * npm run import -- FILE [--user USER_ID]
 * FILE: { title?, messages: [{ role, content, metadata?, createdAt? }] } or a bare array of messages.
 * Queues the import as POST /api/import does (one at a time per user), then runs it here and waits
 * for it: stored and remembered a chunk at a time, with the given replies (nothing generated). Uses
 * DATABASE_URL; without it, the embedded database at PGLITE_DIR (the app must not be running meanwhile).
 * Cut off, it is resumed by the next worker (the app's, or this command run again).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createGuestUser } from '../db/users';
import { DomainError } from '../lib/errors';
import { importSchema } from '../lib/import';
import { getImport, queueImport, runDueImports } from '../lib/import-queue';
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
    try {
      const queued = await queueImport(userId, parsed.data);
      // Runs every due import, this one among them (unless another worker on the same database took it).
      await runDueImports();
      const view = await getImport(userId, queued.id);
      console.log(JSON.stringify({ userId, import: view }, null, 2));
      if (view.status === 'failed') process.exitCode = 1;
      else if (view.status !== 'done')
        console.error(`Import ${view.id} is being run by another worker: follow it with GET /api/import/${view.id}.`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      console.error(error.message);
      process.exitCode = 1;
    }
  },
  { dataDir: appDataDir() },
);
