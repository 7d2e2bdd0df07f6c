/**
 * The in-process worker's doorbell: a reply that ends rings it so its jobs run at once instead of
 * at the next poll. Kept on globalThis (Next may load a module twice: instrumentation and routes).
 */
const holder = globalThis as typeof globalThis & { __memlensWorkerWake?: () => void };

export function setWorkerWake(wake: (() => void) | undefined): void {
  holder.__memlensWorkerWake = wake;
}

/** Wakes this process's worker; false when none runs here. */
export function wakeWorker(): boolean {
  if (!holder.__memlensWorkerWake) return false;
  holder.__memlensWorkerWake();
  return true;
}
