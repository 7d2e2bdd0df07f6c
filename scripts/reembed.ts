/**
 * npm run db:reembed [-- --check]
 *
 * Vectors from different embedders are not comparable. The server re-embeds stored rows by itself
 * when it starts with another embedder (OFFLINE_EMBEDDER, EMBEDDING_MODEL, an API key set or
 * removed); this does it now, with the app stopped: every stored `content` that has an `embedding`
 * (episodes, facts, and any later table of the same shape) with the embedder now configured.
 * --check only samples rows and says whether their vectors match the configured embedder.
 */
import { parseArgs } from 'node:util';
import { embeddedTables } from '../db/embedding-rows';
import { getModels } from '../lib/llm';
import { checkStoredEmbeddings, reembedTable } from '../lib/memory/embedder-sync';
import { appDataDir, withDatabase } from './with-database';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

await withDatabase(
  async () => {
    const models = getModels();
    const embedder = models.embedding.modelId;
    if (values.check) {
      for (const check of await checkStoredEmbeddings(models)) {
        const verdict = check.sampled === 0 ? 'empty' : check.matches ? 'matches' : 'made by another embedder: run without --check';
        console.log(
          `${check.table}: ${verdict}${check.lowestSimilarity === null ? '' : ` (lowest similarity ${check.lowestSimilarity.toFixed(3)} to ${embedder})`}`,
        );
      }
      return;
    }
    for (const table of await embeddedTables())
      console.log(`${table}: ${await reembedTable(models, table)} rows re-embedded with ${embedder}`);
  },
  { dataDir: appDataDir() },
);
