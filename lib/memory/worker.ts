import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getConfig } from '@/lib/config';
import { runNextImport } from '@/lib/import-queue';
import { logError } from '@/lib/log';
import { runDueJobs } from './post-turn';
import { setWorkerWake } from './worker-signal';

// The event loop's delay is sampled every RESOLUTION ms, and reads as RESOLUTION plus the lag.
const LOOP_DELAY_RESOLUTION_MS = 10;
const BUSY_LAG_MS = 10;

export type Worker = { stop: () => Promise<void>; wake: () => void };

/**
 * The post-turn worker: claims due jobs of any user continuously (a lease per job, renewed while it
 * runs), so work left by a crash is done within seconds of a start, and runs queued imports
 * (IMPORT_CONCURRENCY at once, beside the jobs; a cut-off import resumes). It drains what is due at
 * once, then polls; a reply ending or an import queued in this process wakes it early.
 *
 * Post-turn work shares the process with chat turns, and a reply waiting for CPU is worse than a
 * memory that lags: while the event loop is saturated (its median lag over the last round above
 * BUSY_LAG_MS) the worker runs one job at a time, and WORKER_CONCURRENCY again once it is not.
 */
export function startWorker(options: { pollMs?: number; onError?: (error: unknown) => void; onlyUserId?: string } = {}): Worker {
  const pollMs = options.pollMs ?? getConfig().WORKER_POLL_MS;
  const onError = options.onError ?? ((error) => logError('post-turn worker', error));
  let stopped = false;
  // Stops an import between chunks: it stays running, and is resumed from its counts once its lease lapses.
  const stopping = new AbortController();
  // Every sleeping loop's alarm: a wake rings them all.
  const rings = new Set<() => void>();
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        rings.delete(done);
        resolve();
      }
      rings.add(done);
    });

  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  const concurrency = () => {
    const busy = loopDelay.percentile(50) / 1e6 - LOOP_DELAY_RESOLUTION_MS > BUSY_LAG_MS;
    loopDelay.reset();
    return busy ? 1 : getConfig().WORKER_CONCURRENCY;
  };

  /** Runs `step` while it finds work, then sleeps until the next poll or a wake. */
  const loop = async (step: () => Promise<boolean>) => {
    while (!stopped) {
      let ran = false;
      try {
        ran = await step();
      } catch (error) {
        onError(error);
      }
      if (ran || stopped) continue;
      await sleep();
    }
  };
  const runJobs = async () => {
    const result = await runDueJobs(options.onlyUserId ? { userId: options.onlyUserId } : {}, concurrency());
    return result.done + result.failed > 0;
  };
  // Imports take IMPORT_CONCURRENCY slots of their own: one import at a time each, a chunk per transaction.
  const importSlots = options.onlyUserId ? 0 : getConfig().IMPORT_CONCURRENCY;
  const loops = Promise.all([loop(runJobs), ...Array.from({ length: importSlots }, () => loop(() => runNextImport(stopping.signal)))]);

  const wake = () => {
    for (const ring of [...rings]) ring();
  };
  setWorkerWake(wake);
  return {
    wake,
    stop: async () => {
      stopped = true;
      stopping.abort();
      loopDelay.disable();
      setWorkerWake(undefined);
      wake();
      await loops;
    },
  };
}
