import type { z } from 'zod';
import { getConfig } from './config';
import { type DomainError, type ErrorCode, isDomainError, notFound } from './errors';
import { logError } from './log';
import { isUuid } from './shared/uuid';
import { findJsonProblem, MAX_NAMED_KEYS, printableKey, strictObject } from './validation';

const HTTP_ERROR = Symbol.for('memlens.HttpError');

/**
 * What the edge itself refuses before any `lib/` code runs (a body that is not JSON, too large or
 * invalid; a method the route does not serve), as a 4xx JSON body: `{ error: { code, message } }`.
 */
export class HttpError extends Error {
  // As DomainError's mark: recognised by isHttpError in any copy of this module a bundle holds.
  readonly [HTTP_ERROR] = true;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

function isHttpError(error: unknown): error is HttpError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[HTTP_ERROR] === true;
}

/** The one place a domain error becomes an HTTP status. */
const STATUS_OF: Record<ErrorCode, number> = {
  not_found: 404,
  no_session: 401,
  not_signed_in: 401,
  forbidden: 403,
  rate_limited: 429,
  too_many_guests: 429,
  duplicate: 409,
  stale_version: 409,
  exceeds_context_budget: 400,
  budget_too_small: 400,
  not_with_stored: 400,
  not_a_user_message: 409,
  nothing_to_regenerate: 409,
  import_in_progress: 409,
  not_a_reply: 404,
  imported_reply: 404,
  no_record: 404,
  failed_before_context: 404,
  email_too_long: 400,
  name_too_long: 400,
  invalid_image: 400,
  unknown_user: 400,
  invalid_item: 400,
  already_undone: 409,
  undo_expired: 410,
  undo_blocked: 409,
};

/** A domain error as the edge answers it: its status, and a rate limit's wait as Retry-After. */
export function httpErrorOf(error: DomainError): HttpError {
  const { retryAfterSeconds, ...details } = error.details ?? {};
  const headers = retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) };
  return new HttpError(STATUS_OF[error.code], error.code, error.message, Object.keys(details).length ? details : undefined, headers);
}

export function errorResponse(error: HttpError): Response {
  return Response.json(
    { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } },
    { status: error.status, headers: error.headers },
  );
}

/** Wraps a route handler: domain and edge errors become their JSON response; anything else is a logged 500. */
export function route<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    const request = args[0] instanceof Request ? args[0] : undefined;
    return withCookiesSetFor(request, await answer(handler, args, request));
  };
}

async function answer<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
  args: Args,
  request: Request | undefined,
): Promise<Response> {
  try {
    return await handler(...args);
  } catch (error) {
    if (isDomainError(error)) return errorResponse(httpErrorOf(error));
    if (isHttpError(error)) return errorResponse(error);
    logError('unhandled error in route', error, request);
    return errorResponse(new HttpError(500, 'internal_error', 'Something went wrong on the server.'));
  }
}

// Set-Cookie lines a handler's request earned on the way (a guest session started by its first write).
const cookiesFor = new WeakMap<Request, string[]>();

/** Puts these Set-Cookie lines on the response `route()` gives to `request`, error or not. */
export function setCookiesFor(request: Request, setCookies: string[]): void {
  cookiesFor.set(request, [...(cookiesFor.get(request) ?? []), ...setCookies]);
}

function withCookiesSetFor(request: Request | undefined, response: Response): Response {
  for (const line of (request && cookiesFor.get(request)) ?? []) response.headers.append('set-cookie', line);
  return response;
}

type BodyOptions = {
  /** What an empty body stands for; without it, an empty body is refused. */
  emptyAs?: unknown;
  /** The largest body accepted, in bytes; default MAX_BODY_BYTES. */
  maxBytes?: number;
};

/** Bodies nest no deeper than this (free-form metadata has its own, lower bound). */
const MAX_BODY_DEPTH = 32;

/** Parses and validates a JSON body; says which field is wrong. */
export async function readJson<T>(request: Request, schema: z.ZodType<T>, options: BodyOptions = {}): Promise<T> {
  return parseInput(await readJsonBody(request, options), schema);
}

/** For a mutation that takes no body: nothing, or `{}`; any field is refused by name. */
export async function readNoBody(request: Request): Promise<void> {
  await readJson(request, strictObject({}, 'must be empty: this request takes no body'), { emptyAs: {} });
}

/**
 * The body as JSON, refused with a 4xx before anything is written when it is too large (413), not
 * UTF-8 or not JSON, nested too deeply, or holds text Postgres cannot store (NUL, lone surrogates).
 */
export async function readJsonBody(request: Request, options: BodyOptions = {}): Promise<unknown> {
  const text = await readBodyText(request, options.maxBytes ?? getConfig().MAX_BODY_BYTES);
  if (text.trim() === '') {
    if ('emptyAs' in options) return options.emptyAs;
    throw new HttpError(400, 'invalid_json', 'The request body is empty; it must be JSON.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  const problem = findJsonProblem(value, MAX_BODY_DEPTH);
  if (problem) {
    const message = problem.code === 'too_deep' ? `is nested deeper than ${MAX_BODY_DEPTH} levels` : problem.message;
    throw new HttpError(400, problem.code, `${describePath(problem.path)}: ${message}`);
  }
  return value;
}

/** Reads at most `maxBytes`, counting as it reads: Content-Length may be absent or wrong. */
async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  if (Number(request.headers.get('content-length')) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  let size = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(maxBytes);
      }
      parts.push(decoder.decode(chunk.value, { stream: true }));
    }
    parts.push(decoder.decode());
  } catch (error) {
    if (isHttpError(error)) throw error;
    if (error instanceof TypeError && 'code' in error && error.code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw new HttpError(400, 'invalid_json', 'The request body is not valid UTF-8.');
    }
    throw error;
  }
  return parts.join('');
}

const tooLarge = (maxBytes: number) => new HttpError(413, 'too_large', `The request body is larger than the limit of ${maxBytes} bytes.`);

/** Issues a 400 lists in `details`, at most: a body with thousands of bad items gets a short answer. */
const MAX_DETAILS = 10;

export function parseInput<T>(input: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HttpError(
    400,
    issueCode(issue),
    `${describePath(issue.path)}: ${issue.message}`,
    parsed.error.issues.slice(0, MAX_DETAILS).map(detail),
  );
}

/**
 * An issue as the response lists it, bounded whatever the body: its code, path (keys cut) and
 * message, and for unknown fields the first few names. Never its input, nor a union's nested issues:
 * echoing what was sent could return megabytes.
 */
function detail(issue: z.core.$ZodIssue) {
  return {
    code: issue.code,
    path: issue.path.map((key) => (typeof key === 'number' ? key : printableKey(key))),
    message: issue.message,
    ...(issue.code === 'unrecognized_keys'
      ? { keys: issue.keys.slice(0, MAX_NAMED_KEYS).map(printableKey), unknownFields: issue.keys.length }
      : {}),
  };
}

function issueCode(issue: z.core.$ZodIssue): string {
  // Refinements name their own code: `refine(check, { params: { code: 'empty' } })`.
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return issue.params.code;
  if (issue.code === 'too_big') return 'too_large';
  if (issue.code === 'too_small') return 'empty';
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'missing';
  return 'invalid';
}

/** `messages.0.content`; keys are shortened and made printable, since they come from the caller. */
function describePath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return 'body';
  return path.map(printableKey).join('.');
}

export const uuidParam = (value: string, what: string) => {
  if (!isUuid(value)) throw notFound(what, value);
  return value;
};

const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];
/** The methods a route file implements itself (Next answers HEAD from GET). */
type OwnMethod = Exclude<HttpMethod, 'HEAD' | 'OPTIONS'>;
type MethodHandler = (request: Request) => Response;

/**
 * The handlers for every method a route file does not implement, for it to export beside its own:
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST'])`. Such a method gets
 * a 405 with a JSON error and an `Allow` header (Next's own 405 has an empty body); OPTIONS a 204
 * with `Allow`. HEAD stays Next's, answered from GET, when the route has GET.
 */
export function otherMethods<const Allowed extends OwnMethod>(
  allowed: readonly Allowed[],
): Record<Exclude<HttpMethod, Allowed | (Allowed extends 'GET' ? 'HEAD' : never)>, MethodHandler> {
  const own = new Set<HttpMethod>(allowed);
  const allow = HTTP_METHODS.filter((method) => own.has(method) || method === 'OPTIONS' || (method === 'HEAD' && own.has('GET'))).join(
    ', ',
  );
  const refuse: MethodHandler = (request) =>
    errorResponse(
      new HttpError(405, 'method_not_allowed', `${request.method} is not allowed here; allowed: ${allow}.`, undefined, { Allow: allow }),
    );
  const handlers: Partial<Record<HttpMethod, MethodHandler>> = {};
  for (const method of HTTP_METHODS) {
    if (own.has(method) || (method === 'HEAD' && own.has('GET'))) continue;
    handlers[method] = method === 'OPTIONS' ? () => new Response(null, { status: 204, headers: { Allow: allow } }) : refuse;
  }
  return handlers as ReturnType<typeof otherMethods<Allowed>>;
}
