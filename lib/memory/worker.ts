import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getConfig } from '@/lib/config';
import { logError } from '@/lib/log';
import { runDueJobs } from './post-turn';
import { setWorkerWake } from './worker-signal';

// The event loop's delay is sampled every RESOLUTION ms, and reads as RESOLUTION plus the lag.
const LOOP_DELAY_RESOLUTION_MS = 10;
const BUSY_LAG_MS = 10;

export type Worker = { stop: () => Promise<void>; wake: () => void };

/**
 * The post-turn worker: claims due jobs of any user continuously (a lease per job, renewed while it
 * runs), so work left by a crash or a cut-off import is done within seconds of a start. It drains
 * what is due at once, then polls; a reply ending in this process wakes it early.
 *
 * Post-turn work shares the process with chat turns, and a reply waiting for CPU is worse than a
 * memory that lags: while the event loop is saturated (its median lag over the last round above
 * BUSY_LAG_MS) the worker runs one job at a time, and WORKER_CONCURRENCY again once it is not.
 */
export function startWorker(options: { pollMs?: number; onError?: (error: unknown) => void; onlyUserId?: string } = {}): Worker {
  const pollMs = options.pollMs ?? getConfig().WORKER_POLL_MS;
  const onError = options.onError ?? ((error) => logError('post-turn worker', error));
  let stopped = false;
  let ring: (() => void) | undefined;
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        ring = undefined;
        resolve();
      }
      ring = done;
    });

  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  const concurrency = () => {
    const busy = loopDelay.percentile(50) / 1e6 - LOOP_DELAY_RESOLUTION_MS > BUSY_LAG_MS;
    loopDelay.reset();
    return busy ? 1 : getConfig().WORKER_CONCURRENCY;
  };

  const loop = (async () => {
    while (!stopped) {
      let ran = 0;
      try {
        const result = await runDueJobs(options.onlyUserId ? { userId: options.onlyUserId } : {}, concurrency());
        ran = result.done + result.failed;
      } catch (error) {
        onError(error);
      }
      if (ran > 0 || stopped) continue;
      await sleep();
    }
  })();

  const wake = () => ring?.();
  setWorkerWake(wake);
  return {
    wake,
    stop: async () => {
      stopped = true;
      loopDelay.disable();
      setWorkerWake(undefined);
      wake();
      await loop;
    },
  };
}
