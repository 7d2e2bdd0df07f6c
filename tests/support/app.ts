import { getSql } from '@/db/client';
import { resetConfigForTests } from '@/lib/config';
import { startGuest } from '@/lib/session';

/** A browser-like client of the real route handlers: a guest with its own session cookie, JSON in and out. */
export async function newClient() {
  const { user, setCookies } = await startGuest(new Headers());
  const cookie = setCookies.map((line) => line.split(';')[0]).join('; ');
  return {
    user,
    cookie,
    request(path: string, init: { method?: string; body?: unknown; rawBody?: string; signal?: AbortSignal } = {}) {
      const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
      return new Request(`http://localhost${path}`, {
        method: init.method ?? (body ? 'POST' : 'GET'),
        headers: { cookie, 'content-type': 'application/json' },
        body,
        signal: init.signal,
      });
    },
  };
}

export type Client = Awaited<ReturnType<typeof newClient>>;

export const params = <T extends Record<string, string>>(value: T) => ({ params: Promise.resolve(value) });

/** Reads a UI message stream response into its chunks. */
export async function readChunks(response: Response): Promise<Array<Record<string, any>>> {
  const text = await response.text();
  return parseChunks(text);
}

/**
 * Reads a stream until `enough(text so far)` holds; a stream that ends first (a failed turn) fails
 * the test instead of spinning.
 */
export async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  enough: (text: string) => boolean,
  text = '',
): Promise<string> {
  while (!enough(text)) {
    const next = await reader.read();
    if (next.done) throw new Error(`The stream ended before the test saw what it waits for; it sent:\n${text}`);
    text += next.value;
  }
  return text;
}

export function parseChunks(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
}

export function textOf(chunks: Array<Record<string, any>>): string {
  return chunks
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');
}

export async function storedMessages(conversationId: string) {
  return getSql()`select id, role, content, status, error, reply_to from messages where conversation_id = ${conversationId} order by created_at, seq`;
}

export async function countRows(table: 'messages' | 'conversations' | 'facts', userId: string): Promise<number> {
  const [row] = await getSql()`select count(*)::int as n from ${getSql()(table)} where user_id = ${userId}`;
  return row.n;
}

/** Switches the app's configuration for the following calls. */
export function setEnv(values: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfigForTests();
}

/**
 * Polls until `probe` gives a value. The deadline only bounds a state that never comes: it is well
 * past what a busy 2-core machine needs (the test's own timeout is 30 s), never a measure of speed.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
