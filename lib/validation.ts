import { z } from 'zod';

// Building blocks for every request schema: strings Postgres can store, objects that refuse
// unknown fields, free-form metadata with bounds, and dates Postgres accepts.

/** Postgres refuses NUL in text, and a lone UTF-16 surrogate has no UTF-8 form. */
function isStorableText(value: string): boolean {
  return !value.includes('\0') && value.isWellFormed();
}

const UNSTORABLE_TEXT = 'must not contain NUL characters (\\u0000) or unpaired surrogates';

/** A string Postgres can store; chain `.trim()`, `.min()`, `.max()` as on `z.string()`. */
export const text = (error = 'must be a string') =>
  z.string({ error }).refine(isStorableText, { message: UNSTORABLE_TEXT, params: { code: 'invalid_text' }, abort: true });

/** An object that refuses fields it does not name, listing the ones it takes; `typeError` when it is not an object. */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape, typeError?: string) {
  const allowed = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${nameSome(issue.keys)} (allowed: ${allowed.join(', ') || 'none'})`;
      }
      return issue.code === 'invalid_type' ? typeError : undefined;
    },
  });
}

/** Unknown fields an error names, at most: a body with thousands of them gets a short answer. */
export const MAX_NAMED_KEYS = 5;
const MAX_KEY_CHARS = 40;

/** A key from the caller as an error message shows it: printable, and cut to 40 characters. */
export function printableKey(key: PropertyKey): string {
  const printable = String(key).replaceAll('\0', '\uFFFD').toWellFormed();
  return printable.length > MAX_KEY_CHARS ? `${printable.slice(0, MAX_KEY_CHARS)}…` : printable;
}

/** `"a", "b", "c", "d", "e" and 12 more`: the first few keys, quoted and cut, and how many others. */
function nameSome(keys: readonly string[]): string {
  const named = keys.slice(0, MAX_NAMED_KEYS).map((key) => JSON.stringify(printableKey(key)));
  return keys.length > MAX_NAMED_KEYS ? `${named.join(', ')} and ${keys.length - MAX_NAMED_KEYS} more` : named.join(', ');
}

/** What is wrong with a parsed JSON value, and where: nesting too deep, or text Postgres cannot store. */
export type JsonProblem = { path: Array<string | number>; code: 'too_deep' | 'invalid_text'; message: string };

/**
 * Walks a JSON value (keys too) without going deeper than `maxDepth` levels of objects and arrays,
 * so a hostile nesting costs at most that many stack frames.
 */
export function findJsonProblem(value: unknown, maxDepth: number, path: Array<string | number> = []): JsonProblem | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : { path, code: 'invalid_text', message: UNSTORABLE_TEXT };
  if (value === null || typeof value !== 'object') return undefined;
  if (maxDepth === 0) return { path, code: 'too_deep', message: 'is nested too deeply' };
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && !isStorableText(key))
      return { path: [...path, key], code: 'invalid_text', message: `is a key that ${UNSTORABLE_TEXT}` };
    const problem = findJsonProblem(item, maxDepth - 1, [...path, key]);
    if (problem) return problem;
  }
  return undefined;
}

const METADATA_MAX_DEPTH = 8;
const METADATA_MAX_BYTES = 16_384;

/** Free-form provenance kept with a message (e.g. `{ diaId: 'D1:3' }`): an object, at most 8 levels deep and 16 KiB as JSON. */
export const metadata = z.record(z.string(), z.unknown(), { error: 'must be an object' }).superRefine((value, ctx) => {
  const problem = findJsonProblem(value, METADATA_MAX_DEPTH);
  if (problem) {
    const message = problem.code === 'too_deep' ? `is nested deeper than ${METADATA_MAX_DEPTH} levels` : problem.message;
    ctx.addIssue({ code: 'custom', path: problem.path, message, params: { code: problem.code } });
    return;
  }
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', message: `is larger than ${METADATA_MAX_BYTES} bytes as JSON`, params: { code: 'too_large' } });
  }
});

/** Postgres stores times from 4713 BC, but has no year 0: JSON times keep to years 0001 to 9999 (UTC). */
const inStorableYears = (time: Date) => time.getUTCFullYear() >= 1 && time.getUTCFullYear() <= 9999;
const OUT_OF_RANGE = { message: 'must be a time from year 0001 to 9999', params: { code: 'out_of_range' } };

/** An ISO 8601 time with an offset, e.g. 2024-05-01T12:00:00Z, that Postgres stores as given. */
export const isoTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time with an offset, e.g. 2024-05-01T12:00:00Z' })
  .refine((value) => inStorableYears(new Date(value)), OUT_OF_RANGE);

/** A time from a query string (any form `Date` reads), within the same years. */
export const queryTime = z.coerce.date({ error: 'must be a date or time, e.g. 2024-05-01' }).refine(inStorableYears, OUT_OF_RANGE);
