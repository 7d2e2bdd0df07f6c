/**
 * An attacker's probe of a running app: `npm run probe -- [--url http://127.0.0.1:3000] [--json FILE]`.
 * Start the production build on its defaults first (`npm run build && npm start`). Every case is a bad
 * input; each is sent and its outcome counted:
 * - `refused`: a 4xx with a JSON `{error:{code,message}}` body and the security headers (what we want);
 * - `refused-bare`: a 4xx without them, `accepted`: a 2xx/3xx, `server-error`: a 5xx, `unanswered`: no
 *   answer within the case's time, `unsafe`: a case's own check failed (an off-site redirect, a lock-out).
 * Exits 1 when any case is anything but `refused` (or, for the few that must be answered, `expected`).
 */

import { writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, json: { type: 'string' } } });
const base = new URL(args.url!);

type Outcome = 'refused' | 'expected' | 'refused-bare' | 'accepted' | 'server-error' | 'unanswered' | 'unsafe';
type Result = { kind: string; name: string; outcome: Outcome; status?: number; note?: string };
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string } | undefined;

const results: Result[] = [];
const ID = '00000000-0000-4000-8000-000000000000';

/** One HTTP request with a raw path and any headers (Host included), answered within `timeoutMs` or not at all. */
function send(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: { ...options.headers },
        setHost: !options.headers?.host,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', () => resolve(undefined));
      },
    );
    request.setTimeout(options.timeoutMs ?? 10_000, () => request.destroy());
    // A server that refuses a large body answers and closes while the body is still being written:
    // the write fails (EPIPE) although the answer is on its way, so an error waits a moment for it.
    request.on('error', () => setTimeout(() => resolve(undefined), 500));
    request.end(options.body);
  });
}

/** A raw request written to a socket: what the first line of the answer says, if any came within `timeoutMs`. */
function sendRaw(text: string | Buffer, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(base.port), base.hostname);
    let received = '';
    const done = () => {
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (!match) return resolve(undefined);
      const [head, body = ''] = received.split('\r\n\r\n');
      const headers: http.IncomingHttpHeaders = {};
      for (const line of head.split('\r\n').slice(1)) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(match[1]), headers, body });
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) setTimeout(done, 200);
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(text);
  });
}

function classify(answer: Answer): { outcome: Outcome; status?: number } {
  if (!answer) return { outcome: 'unanswered' };
  const { status, headers, body } = answer;
  if (status >= 500) return { outcome: 'server-error', status };
  if (status < 400) return { outcome: 'accepted', status };
  let json: { error?: { message?: unknown }; message?: unknown } | undefined;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  // better-auth's own routes answer `{code, message}`: as clear, in its own shape.
  const error = json?.error ?? json;
  const clean = typeof error?.message === 'string' && headers['x-content-type-options'] === 'nosniff';
  return { outcome: clean ? 'refused' : 'refused-bare', status };
}

function record(kind: string, name: string, answer: Answer, unsafe?: string) {
  const { outcome, status } = classify(answer);
  results.push({ kind, name, outcome: unsafe ? 'unsafe' : outcome, status, note: unsafe });
}

/** A case with a check of its own: `expected` when it holds, else `unsafe` with the note. */
function check(kind: string, name: string, holds: boolean, answer: Answer, note?: string) {
  results.push({ kind, name, outcome: holds ? 'expected' : 'unsafe', status: answer?.status, note: holds ? undefined : note });
}

const json = (value: unknown) => JSON.stringify(value);
const browserHeaders = (cookie: string) => ({ cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' });

/**
 * POST /api/auth/sign-up/email. The probe's own sign-ups spend the address's sign-up limit (better-auth's,
 * a few in 10 s): a 429 is waited out once, so each case meets the check it is about, not the limit.
 */
async function signUpWith(body: Record<string, unknown>): Promise<Answer> {
  const attempt = () =>
    send('POST', '/api/auth/sign-up/email', { headers: { 'content-type': 'application/json', origin: base.origin }, body: json(body) });
  const answer = await attempt();
  if (answer?.status !== 429) return answer;
  await new Promise((resolve) => setTimeout(resolve, (Number(answer.headers['x-retry-after']) || 10) * 1000 + 500));
  return attempt();
}

/** A signed-up member's cookies (a fresh email each run). */
async function signUp(): Promise<string> {
  const email = `probe-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const answer = await signUpWith({ email, password: 'a probe password 1', name: 'Probe' });
  if (answer?.status !== 200) throw new Error(`sign-up failed: ${answer?.status} ${answer?.body.slice(0, 200)}`);
  const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
  return cookies.map((line) => line.split(';')[0]).join('; ');
}

const ID_ROUTES = [
  '/api/conversations/:id',
  '/api/conversations/:id/messages',
  '/api/conversations/:id/summary',
  '/api/facts/:id',
  '/api/episodes/:id',
  '/api/messages/:id',
  '/api/messages/:id/context',
  '/api/messages/:id/replay',
];
const BAD_IDS = [
  '%zz',
  '%E0%A4%A',
  '%',
  '..%2f..%2fetc%2fpasswd',
  "1'%20or%20'1'='1",
  'x'.repeat(5000),
  '%F0%9F%98%80',
  '%00',
  '%C0%AF',
  '-1',
];
/** Routes that take a body (a new conversation's is optional, so an empty one is not bad input there). */
const BODY_ROUTES: Array<[string, string]> = [
  ['POST', '/api/chat'],
  ['POST', '/api/facts'],
  ['POST', '/api/import'],
  ['PATCH', `/api/facts/${ID}`],
  ['PUT', `/api/conversations/${ID}/summary`],
  ['POST', '/api/auth/sign-in/email'],
  ['POST', '/api/auth/sign-up/email'],
];
const BAD_BODIES: Array<[string, string | Buffer, string?]> = [
  ['not JSON', '{"message": '],
  ['empty', ''],
  ['an array', '[]'],
  ['unknown field', json({ isAdmin: true })],
  ['NUL in a string', '{"title":"a\\u0000b"}'],
  ['lone surrogate', '{"title":"a\\ud800b"}'],
  ['nested 40 deep', '['.repeat(40) + ']'.repeat(40)],
  ['2 MB string', json({ title: 'x'.repeat(2 * 1024 * 1024) })],
  ['not UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['form-encoded', 'title=x', 'application/x-www-form-urlencoded'],
];

async function probePaths(cookie: string) {
  for (const route of ID_ROUTES)
    for (const id of BAD_IDS)
      record(
        'malformed path',
        `GET ${route} with ${id.slice(0, 30)}`,
        await send('GET', route.replace(':id', id), { headers: browserHeaders(cookie) }),
      );
  for (const path of ['/api/%zz', '/%E0%A4%A', '/api/facts/%zz', '/c/%zz', '/staff/users/%zz'])
    record('malformed path', `GET ${path}`, await send('GET', path, { headers: browserHeaders(cookie) }));
}

async function probeBodies(cookie: string) {
  for (const [method, path] of BODY_ROUTES) {
    for (const [name, body, type] of BAD_BODIES) {
      const headers = { ...browserHeaders(cookie), origin: base.origin, 'content-type': type ?? 'application/json' };
      record('bad body', `${method} ${path}: ${name}`, await send(method, path, { headers, body }));
    }
  }
}

async function probeConnection(cookie: string) {
  const host = `${base.hostname}:${base.port}`;
  record(
    'headers',
    'Host: a rebound name',
    await send('GET', '/api/me', { headers: { ...browserHeaders(cookie), host: 'rebound.example:3000' } }),
  );
  record(
    'headers',
    'POST with a matching Origin on a rebound Host',
    await send('POST', '/api/conversations', {
      headers: { ...browserHeaders(cookie), host: 'rebound.example', origin: 'http://rebound.example', 'sec-fetch-site': 'same-origin' },
      body: '{}',
    }),
  );
  const absolute = await sendRaw(`GET http://evil.example/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  record('headers', 'absolute-form request line', absolute, answerLeavesSite(absolute));
  const huge = await sendRaw(
    `POST /api/chat HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\nCookie: ${cookie}\r\n\r\n{`,
    5_000,
  );
  record('headers', 'Content-Length: 99999999999 answered at once', huge);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let chunked = `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  for (let i = 0; i < 20; i++) chunked += `${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`;
  record('headers', 'chunked body over 1 MiB to /api/auth', await sendRaw(Buffer.from(`${chunked}0\r\n\r\n`, 'latin1'), 15_000));
  for (const value of ['../../etc', '<script>', 'x'.repeat(500)]) {
    const answer = await send('GET', '/api/me', { headers: { ...browserHeaders(cookie), 'x-request-id': value } });
    check(
      'headers',
      `X-Request-Id ${value.slice(0, 12)} is not taken as given`,
      answer !== undefined && answer.headers['x-request-id'] !== value,
      answer,
    );
  }
}

function answerLeavesSite(answer: Answer): string | undefined {
  const location = answer?.headers.location;
  if (typeof location !== 'string') return undefined;
  return new URL(location, base).origin !== base.origin ? `redirects to ${location}` : undefined;
}

async function probeIdentity() {
  const email = `victim-${Date.now().toString(36)}@example.test`;
  await signUpWith({ email, password: 'the right password 1', name: 'Victim' });
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    const answer = await send('POST', '/api/auth/sign-in/email', {
      headers: { 'content-type': 'application/json', origin: base.origin, 'x-forwarded-for': `203.0.113.${i + 1}` },
      body: json({ email, password: `wrong ${i}` }),
    });
    statuses.push(answer?.status ?? 0);
  }
  check(
    'identity',
    '40 wrong passwords, a new X-Forwarded-For each, are limited',
    statuses.includes(429),
    undefined,
    `statuses ${[...new Set(statuses)].join(',')}`,
  );
  for (const [name, body] of [
    ['a 200,000-character name', { email: `long-${Date.now()}@example.test`, password: 'a fine password 1', name: 'n'.repeat(200_000) }],
    [
      'a javascript: image',
      { email: `img-${Date.now()}@example.test`, password: 'a fine password 1', name: 'X', image: 'javascript:alert(1)' },
    ],
    ['a 5,000-character email', { email: `${Date.now()}${'e'.repeat(5000)}@example.test`, password: 'a fine password 1', name: 'X' }],
    ['a 100,000-character password', { email: `pw-${Date.now()}@example.test`, password: 'p'.repeat(100_000), name: 'X' }],
  ] as const) {
    record('identity', `sign-up with ${name}`, await signUpWith(body));
  }
  // Cookie-less page views must create nothing that locks the next visitor out.
  for (let i = 0; i < 300; i++) await send('GET', i % 2 ? '/api/me' : '/', { headers: { 'x-forwarded-for': `198.51.100.${i % 250}` } });
  const visitor = await send('POST', '/api/conversations', {
    headers: { 'content-type': 'application/json', origin: base.origin },
    body: '{}',
  });
  check(
    'identity',
    'a new visitor can still write after 300 cookie-less views',
    visitor !== undefined && visitor.status < 400,
    visitor,
    `status ${visitor?.status}`,
  );
}

async function probeStaffAndOracles(cookie: string) {
  for (const path of ['/api/staff/users', `/api/staff/users/${ID}`, '/api/staff/audit', '/api/staff/jobs']) {
    record(
      'cross-site',
      `GET ${path} from another site`,
      await send('GET', path, {
        headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      }),
    );
  }
  // Another user's message id must be answered exactly as an id that exists nowhere.
  const other = await signUp();
  const theirConversation = await newConversation(other);
  await send('POST', '/api/chat', {
    headers: browserHeaders(other),
    body: json({ conversationId: theirConversation, message: { text: 'a message of someone else' } }),
    timeoutMs: 30_000,
  });
  const listed = await send('GET', `/api/conversations/${theirConversation}/messages`, { headers: browserHeaders(other) });
  const theirMessage = (JSON.parse(listed?.body ?? '{}').messages ?? [])[0]?.id as string | undefined;
  if (!theirMessage) throw new Error('could not set up the existence-oracle case');
  // Each in a new conversation of the prober's, so both replies have the same history to go on.
  const ask = async (messageId: string) =>
    send('POST', '/api/chat', {
      headers: browserHeaders(cookie),
      body: json({ conversationId: await newConversation(cookie), message: { id: messageId, text: 'hello' } }),
      timeoutMs: 30_000,
    });
  const [missing, foreign] = [await ask(crypto.randomUUID()), await ask(theirMessage)];
  // A refusal must read the same (server-made ids masked); a streamed reply's words depend on memory, so only its kind is compared.
  const shape = (answer: Answer) =>
    answer &&
    `${answer.status} ${answer.headers['content-type']} ${answer.status < 300 ? '' : answer.body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gu, 'ID')}`;
  const alike = shape(missing) !== undefined && shape(missing) === shape(foreign);
  check(
    'oracle',
    "chat with another user's message id answers as a missing id",
    alike,
    foreign,
    `missing: ${missing?.status} ${missing?.body.slice(0, 100)}; theirs: ${foreign?.status} ${foreign?.body.slice(0, 100)}`,
  );
}

async function newConversation(cookie: string): Promise<string | undefined> {
  const created = await send('POST', '/api/conversations', { headers: browserHeaders(cookie), body: '{}' });
  const body = JSON.parse(created?.body ?? '{}');
  return body.conversation?.id ?? body.id;
}

async function main() {
  const cookie = await signUp();
  await probePaths(cookie);
  await probeBodies(cookie);
  await probeConnection(cookie);
  await probeStaffAndOracles(cookie);
  await probeIdentity();

  const counts: Record<string, number> = {};
  for (const { outcome } of results) counts[outcome] = (counts[outcome] ?? 0) + 1;
  const bad = results.filter((r) => r.outcome !== 'refused' && r.outcome !== 'expected');
  console.log(`probe of ${base.origin}: ${results.length} bad inputs`);
  console.log(
    Object.entries(counts)
      .map(([outcome, n]) => `  ${outcome}: ${n}`)
      .join('\n'),
  );
  for (const r of bad)
    console.log(`  ✗ [${r.kind}] ${r.name}: ${r.outcome}${r.status ? ` ${r.status}` : ''}${r.note ? ` (${r.note})` : ''}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ at: new Date().toISOString(), url: base.origin, counts, results }, null, 2));
  process.exitCode = bad.length ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
