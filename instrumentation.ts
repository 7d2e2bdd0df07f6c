/**
 * Next calls this once when a server process starts: the post-turn worker runs inside it (unless
 * RUN_WORKER=false, for deployments that run `npm run worker` separately), draining due jobs first.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getConfig } = await import('./lib/config');
  if (!getConfig().RUN_WORKER) return;
  const { startWorker } = await import('./lib/memory/worker');
  const worker = startWorker();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void worker.stop());
}
