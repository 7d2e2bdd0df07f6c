/**
 * `npm run worker`: the post-turn worker on its own, for deployments that run it apart from the app
 * (set RUN_WORKER=false on the app then). Needs DATABASE_URL: the embedded database belongs to `npm start`.
 */

import { startWorker } from '@/lib/worker';
import { closeDb } from '../db/client';
import { getModels } from '../lib/llm';
import { escapeConsoleLines } from '../lib/log';
import { syncStoredEmbeddingsInBackground } from '../lib/memory/embedder-sync';
import { syncSearchIndexInBackground } from '../lib/memory/search-index-sync';
import { warmLanguageData } from '../lib/text/index-terms';
import { migrateAppDatabase } from './with-database';

escapeConsoleLines();

const url = process.env.DATABASE_URL?.trim();
if (!url) {
  console.error(
    'npm run worker needs DATABASE_URL (a Postgres shared with the app); with the embedded database the app runs its own worker.',
  );
  process.exit(2);
}
await migrateAppDatabase(url, { embedded: false });
warmLanguageData();
const worker = startWorker();
syncStoredEmbeddingsInBackground(getModels());
syncSearchIndexInBackground();
console.log('[memlens] post-turn worker running; Ctrl+C to stop');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await worker.stop();
    await closeDb();
    process.exit(0);
  });
}
