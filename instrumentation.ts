/**
 * Next calls this once when a server process starts: the post-turn worker runs inside it (unless
 * RUN_WORKER=false, for deployments that run `npm run worker` separately), draining due jobs first,
 * stored vectors made by another embedder are re-embedded (lib/memory/embedder-sync.ts) and rows
 * indexed with other terms re-indexed (lib/memory/search-index-sync.ts). All
 * begin once the app's server listens (scripts/server.ts), never before: a job or an import that
 * stalls must not keep the server from answering.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // The rules' threads load before the first request (about 2 s), not in the first turn.
  await (await import('./lib/memory/rules/bounded')).warmRules();
  // So do the Chinese segmenter, the bilingual bridge and WordNet of the lexical index (about 2 s, on this thread).
  (await import('./lib/text/index-terms')).warmLanguageData();
  const { getConfig } = await import('./lib/config');
  if (!getConfig().RUN_WORKER) return;
  const [{ startWorker }, { syncStoredEmbeddingsInBackground }, { syncSearchIndexInBackground }, { getModels }, { whenListening }] =
    await Promise.all([
      import('./lib/worker'),
      import('./lib/memory/embedder-sync'),
      import('./lib/memory/search-index-sync'),
      import('./lib/llm'),
      import('./lib/memory/jobs/worker-signal'),
    ]);
  whenListening(() => {
    const worker = startWorker();
    syncStoredEmbeddingsInBackground(getModels());
    syncSearchIndexInBackground();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void worker.stop());
  });
}
