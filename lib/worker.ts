import { getConfig } from '@/lib/config';
import { runNextImport } from '@/lib/import-queue';
import { logError } from '@/lib/log';
import { runDueJobs } from './memory/jobs/queue';
import { liveTurns, setWorkerWake } from './memory/jobs/worker-signal';

export type Worker = { stop: () => Promise<void>; wake: () => void };

/**
 * The post-turn worker: claims due jobs of any user continuously (a lease per job, renewed while it
 * runs), so work left by a crash is done within seconds of a start, and runs queued imports
 * (IMPORT_CONCURRENCY at once, beside the jobs; a cut-off import resumes). It drains what is due at
 * once, then polls; a reply ending or an import queued in this process wakes it early.
 *
 * Post-turn work shares the process with chat turns, and a reply waiting for CPU is worse than a
 * memory that lags, so jobs queue behind live turns: while any turn is being served here no job
 * starts unless it has waited WORKER_MAX_WAIT_MS, and when none is, WORKER_CONCURRENCY
 * conversations' jobs run at once. A count of live turns, not a semaphore turns take first: turns
 * never wait for a slot, and a job, once started, holds no turn back beyond its own CPU. The bound
 * keeps a memory from falling behind for ever under a load that never pauses: past it, the waiting
 * jobs run beside the turns, oldest first. A round already claimed finishes (about a second);
 * imports are not held back (they hold their own slots and run in chunks). A worker in a process
 * of its own (`npm run worker`) sees no live turns and never waits.
 */
export function startWorker(options: { pollMs?: number; onError?: (error: unknown) => void; onlyUserId?: string } = {}): Worker {
  const pollMs = options.pollMs ?? getConfig().WORKER_POLL_MS;
  const onError = options.onError ?? ((error) => logError('post-turn worker', error));
  let stopped = false;
  // Stops an import between chunks: it stays running, and is resumed from its counts once its lease lapses.
  const stopping = new AbortController();
  // Every sleeping loop's alarm: a wake rings those that heed it now.
  const rings = new Set<() => void>();
  const sleep = (heed: () => boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        rings.delete(ring);
        resolve();
      }
      function ring() {
        if (heed() || stopped) done();
      }
      rings.add(ring);
    });

  /** Runs `step` while it finds work, then sleeps until the next poll or a wake it heeds. */
  const loop = async (step: () => Promise<boolean>, heed: () => boolean = () => true) => {
    while (!stopped) {
      let ran = false;
      try {
        ran = await step();
      } catch (error) {
        onError(error);
      }
      if (ran || stopped) continue;
      await sleep(heed);
    }
  };
  const runJobs = async () => {
    const config = getConfig();
    const yielding = liveTurns() > 0;
    const result = await runDueJobs({
      ...(options.onlyUserId ? { userId: options.onlyUserId } : {}),
      ...(yielding ? { waitedMs: config.WORKER_MAX_WAIT_MS } : {}),
    });
    return result.done + result.failed > 0;
  };
  // Imports take IMPORT_CONCURRENCY slots of their own: one import at a time each, a chunk per transaction.
  const importSlots = options.onlyUserId ? 0 : getConfig().IMPORT_CONCURRENCY;
  const loops = Promise.all([
    // A turn ending while others are live is no reason to look: only the poll finds jobs past their wait.
    loop(runJobs, () => liveTurns() === 0),
    ...Array.from({ length: importSlots }, () => loop(() => runNextImport(stopping.signal))),
  ]);

  const wake = () => {
    for (const ring of [...rings]) ring();
  };
  setWorkerWake(wake);
  return {
    wake,
    stop: async () => {
      stopped = true;
      stopping.abort();
      setWorkerWake(undefined);
      wake();
      await loops;
    },
  };
}
