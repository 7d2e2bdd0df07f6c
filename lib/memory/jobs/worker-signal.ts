/**
 * What the chat turns of this process tell its worker: a reply that ends rings its doorbell so its
 * jobs run at once instead of at the next poll, and the count of turns being served lets the worker
 * yield to them. Kept on globalThis (Next may load a module twice: instrumentation and routes).
 */
const holder = globalThis as typeof globalThis & {
  __memlensWorkerWake?: () => void;
  __memlensLiveTurns?: number;
  __memlensListening?: boolean;
  __memlensOnListening?: Array<() => void>;
};

/**
 * The app's server listens now (scripts/server.ts): what waits for it starts. Work that may stall
 * (a job, an import) must not hold up the start, so the worker begins only then.
 */
export function markListening(): void {
  holder.__memlensListening = true;
  const waiting = holder.__memlensOnListening ?? [];
  holder.__memlensOnListening = undefined;
  for (const start of waiting) start();
}

/** Whether this process is the app's server (scripts/server.ts), not a test or a script. */
export function isAppServer(): boolean {
  return holder.__memlensListening === true;
}

/** Runs `start` once the app's server listens: now if it already does. */
export function whenListening(start: () => void): void {
  if (holder.__memlensListening) start();
  else holder.__memlensOnListening = [...(holder.__memlensOnListening ?? []), start];
}

export function setWorkerWake(wake: (() => void) | undefined): void {
  holder.__memlensWorkerWake = wake;
}

/** Wakes this process's worker; false when none runs here. */
export function wakeWorker(): boolean {
  if (!holder.__memlensWorkerWake) return false;
  holder.__memlensWorkerWake();
  return true;
}

/** Chat turns this process is serving now, from the request to the end of the reply's stream. */
export function liveTurns(): number {
  return holder.__memlensLiveTurns ?? 0;
}

/**
 * Serves a chat turn counted as live until its response's body ends: read to its end, failed, or
 * cancelled by a client that left (at once when it has no body, or the turn throws). The last live
 * turn ending rings the worker, which held its jobs back meanwhile.
 */
export async function asLiveTurn(turn: () => Promise<Response>): Promise<Response> {
  holder.__memlensLiveTurns = liveTurns() + 1;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    holder.__memlensLiveTurns = liveTurns() - 1;
    if (liveTurns() === 0) wakeWorker();
  };
  let response: Response;
  try {
    response = await turn();
  } catch (error) {
    end();
    throw error;
  }
  if (!response.body) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          end();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
