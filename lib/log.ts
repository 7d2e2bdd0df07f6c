import { formatWithOptions } from 'node:util';
import { getConfig } from './config';
import { sentRequestId } from './request-id';

/**
 * The server's error log. By default an error is told by its kind only: name, code, a message with
 * quoted values and URL credentials taken out, and for a database error the table, column and
 * constraint it names. Never the query, its parameters, a detail or a stack, any of which can carry
 * what a user wrote, an id or a password. MEMLENS_DEBUG=1 logs the whole error as well. Every
 * line is written with its control characters escaped (`oneLine`), so nothing logged can start a
 * line of its own or drive the terminal.
 */
export type LogContext = { requestId?: string | null; method?: string; path?: string };

export type ErrorSummary = {
  name: string;
  code?: string;
  message: string;
  table?: string;
  column?: string;
  constraint?: string;
  cause?: ErrorSummary;
};

const PREFIX = '[memlens]';
const MAX_CAUSES = 3;

/** MEMLENS_DEBUG; off when the configuration itself cannot be read (that error is logged too). */
const debugLogging = () => {
  try {
    return getConfig().MEMLENS_DEBUG;
  } catch {
    return false;
  }
};

/** `context` is the request being served (its id, method and path are logged, not its query string) or the ids at hand. */
export function logError(event: string, error: unknown, context?: Request | LogContext): void {
  const line = { ...contextOf(context), error: summarizeError(error) };
  if (debugLogging()) print('error', PREFIX, event, JSON.stringify(line), error, hiddenDetail(error));
  else print('error', PREFIX, event, JSON.stringify(line));
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * For a library's own logger (better-auth's): its message, with any value from the request taken
 * out (`libraryMessage`), and the errors among its arguments told as logError tells them; its
 * other arguments (a user, a request body) and the message whole only under MEMLENS_DEBUG.
 */
export function logFromLibrary(source: string, level: Level, message: string, args: unknown[]): void {
  if (debugLogging()) {
    print(level, PREFIX, `${source}: ${message}`, ...args);
    return;
  }
  if (level === 'debug') return;
  const errors = args.filter((arg) => arg instanceof Error).map((error) => summarizeError(error));
  print(level, PREFIX, `${source}: ${libraryMessage(message)}`, ...(errors.length ? [JSON.stringify({ errors })] : []));
}

// Control characters (C0, DEL, C1), the Unicode line and paragraph separators, and the bidirectional
// controls (which reorder what a terminal shows).
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character written as an escape (`\n`, `\u001b`): one line, however it was made. */
function oneLine(text: string): string {
  return text.replace(CONTROL, (char) => NAMED_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Formats `args` as console would (without colours) and writes them as one line. */
function print(level: Level, ...args: unknown[]): void {
  console[level](oneLine(formatWithOptions({ colors: false }, ...args)));
}

const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;
type ConsoleLines = Pick<Console, (typeof CONSOLE_LEVELS)[number]>;

/**
 * Makes every line `target` (this process's console) writes one line with its control characters
 * escaped: whatever Next, a library or the app prints (a header, a URL, an error's message). For the
 * server processes (scripts/server.ts, scripts/worker.ts); colours would show as escapes, so their
 * launcher sets NO_COLOR.
 */
export function escapeConsoleLines(target: ConsoleLines = console): void {
  for (const level of CONSOLE_LEVELS) {
    const write = target[level];
    target[level] = (...args: unknown[]) => write(oneLine(formatWithOptions({ colors: false }, ...args)));
  }
}

/**
 * Library messages that quote a value from the request (a query parameter, an address, an email):
 * the kind of message is kept, the value dropped. better-auth's origin check logs the callbackURL,
 * redirectTo or origin it refused as given (`Invalid callbackURL: …`).
 */
const QUOTED_VALUES: Array<[RegExp, string]> = [
  [/^(Invalid [\w ]+): .*$/s, '$1: …'],
  [/^(Sign-up attempt for existing email): .*$/s, '$1: …'],
  [/^(If it's a valid URL, please add) .*? (to trustedOrigins)/s, '$1 … $2'],
];
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/\S*/gi;
// Tried only where a run of non-blanks starts, so a long run without an @ is read once.
const EMAIL_IN_TEXT = /(?<![^\s@])[^\s@]+@[^\s@]+\.[^\s@]+/g;

function libraryMessage(message: string): string {
  let kept = message;
  for (const [pattern, replacement] of QUOTED_VALUES) kept = kept.replace(pattern, replacement);
  return redact(kept).replace(URL_IN_TEXT, '…').replace(EMAIL_IN_TEXT, '…');
}

export function summarizeError(error: unknown, depth = 0): ErrorSummary {
  // A thrown string or object can be anything a user sent: only its type is told.
  if (!(error instanceof Error)) return { name: typeof error, message: 'a non-Error value was thrown' };
  const fields = error as Error & Partial<Record<'code' | 'table_name' | 'column_name' | 'constraint_name', unknown>>;
  const summary: ErrorSummary = { name: nameOf(error), message: messageOf(error) };
  if (typeof fields.code === 'string' || typeof fields.code === 'number') summary.code = String(fields.code);
  // postgres.js names these fields as the server does; they hold identifiers, never values.
  if (typeof fields.table_name === 'string') summary.table = fields.table_name;
  if (typeof fields.column_name === 'string') summary.column = fields.column_name;
  if (typeof fields.constraint_name === 'string') summary.constraint = fields.constraint_name;
  if (error.cause !== undefined && depth < MAX_CAUSES) summary.cause = summarizeError(error.cause, depth + 1);
  return summary;
}

/**
 * An error told in one line, for storing (a failed job's `last_error`, shown to staff): what
 * summarizeError keeps, then each cause: never SQL, parameters or a stack.
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let summary: ErrorSummary | undefined = summarizeError(error); summary; summary = summary.cause) {
    const where = [
      summary.table && `table ${summary.table}`,
      summary.column && `column ${summary.column}`,
      summary.constraint && `constraint ${summary.constraint}`,
    ];
    const place = where.filter(Boolean).join(', ');
    parts.push(`${summary.name}${summary.code ? ` ${summary.code}` : ''}: ${summary.message}${place ? ` (${place})` : ''}`);
  }
  return parts.join('; caused by ');
}

function nameOf(error: Error): string {
  if (isQueryError(error)) return 'DrizzleQueryError';
  return error.name === 'Error' && error.constructor?.name ? error.constructor.name : error.name;
}

function messageOf(error: Error): string {
  // drizzle's message is the SQL and then every parameter; what failed is in its cause.
  if (isQueryError(error)) return 'Failed query';
  return redact(error.message);
}

/**
 * drizzle's DrizzleQueryError, told by its shape (its message, or its own query and params), never by
 * `instanceof` or its class name: a production bundle may hold another copy of the class, its name
 * shortened, and the check would then pass the SQL and parameters to the log.
 */
function isQueryError(error: Error): boolean {
  const { query, params } = error as Error & { query?: unknown; params?: unknown };
  return error.message.startsWith('Failed query:') || (typeof query === 'string' && Array.isArray(params));
}

/**
 * Postgres quotes the value it could not take (`invalid input syntax for type uuid: "…"`), as JSON.parse
 * quotes the text it could not read; identifiers are quoted the same way and are lost with them, but
 * the table, column and constraint fields keep the useful ones.
 */
function redact(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\/\/[^/\s:@]*:[^@\s]*@/g, '//…:…@');
}

function contextOf(context: Request | LogContext | undefined): LogContext {
  if (!context) return {};
  if (!(context instanceof Request)) return context;
  const requestId = sentRequestId(context.headers);
  return { ...(requestId ? { requestId } : {}), method: context.method, path: new URL(context.url).pathname };
}

/** postgres.js keeps the query and its parameters on the error, hidden from a plain print. */
function hiddenDetail(error: unknown): Record<string, unknown> {
  const detail: Record<string, unknown> = {};
  for (let current = error, depth = 0; current instanceof Error && depth <= MAX_CAUSES; current = current.cause, depth++) {
    const { query, parameters } = current as Error & { query?: unknown; parameters?: unknown };
    if (query !== undefined || parameters !== undefined) Object.assign(detail, { query, parameters });
  }
  return detail;
}
