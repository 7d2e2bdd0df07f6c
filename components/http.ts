import { z } from 'zod';
import type { locateMessage } from '@/db/staff';
import type { JsonResult } from './json';

// What the user's and the staff's API clients share: the error they throw, reading it, query strings.

/** An error the API answered with (`{ error: { code, message } }`), or a network failure. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Reads `{ error: { code, message } }` out of a response body. */
export function parseApiError(body: string): { code: string; message: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  return errorBody.safeParse(json).data?.error;
}

const errorBody = z.object({ error: z.object({ code: z.string().catch('error'), message: z.string() }) });

/** `fetch`, with a network failure or an error answer thrown as an `ApiError`. */
export async function fetchOrThrow(path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'network');
  }
  if (!response.ok) {
    const parsed = parseApiError(await response.text());
    throw new ApiError(parsed?.message ?? `The server answered ${response.status}.`, response.status, parsed?.code ?? 'http_error');
  }
  return response;
}

/** `?a=1&b=2` of the given values (empty ones left out), or ''. */
export function queryString(values: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Where a message lives: its conversation, for links to other conversations. */
export type MessageLocation = Pick<NonNullable<JsonResult<typeof locateMessage>>, 'conversationId' | 'role'>;
