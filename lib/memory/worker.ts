import { getConfig } from '@/lib/config';
import { logError } from '@/lib/log';
import { runDueJobs } from './post-turn';
import { setWorkerWake } from './worker-signal';

export type Worker = { stop: () => Promise<void>; wake: () => void };

/**
 * The post-turn worker: claims due jobs of any user continuously (a lease per job, renewed while it
 * runs), so work left by a crash or a cut-off import is done within seconds of a start. It drains
 * what is due at once, then polls; a reply ending in this process wakes it early.
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

  const loop = (async () => {
    while (!stopped) {
      let ran = 0;
      try {
        const result = await runDueJobs(options.onlyUserId ? { userId: options.onlyUserId } : {});
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
      setWorkerWake(undefined);
      wake();
      await loop;
    },
  };
}
