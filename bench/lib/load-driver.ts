/**
 * The load itself: N guests, each with its own cookie and conversation, sending full chat turns one
 * after another (no think time) for a number of turns or seconds, every stream read to its end.
 * Each question carries a marker unique to its run, user and turn, so the checks afterwards can
 * tell a lost message from one stored under someone else.
 */
export type VirtualUser = {
  index: number;
  cookie: string;
  userId: string;
  conversationId: string;
  turns: TurnSample[];
};

export type TurnSample = {
  marker: string;
  question: string;
  /** The server answered with a stream (it took the turn). */
  accepted: boolean;
  ok: boolean;
  error?: string;
  /** From sending the request: the first byte of the body, the first text token, the end of the stream. */
  firstByteMs?: number;
  firstTokenMs?: number;
  completeMs?: number;
  text: string;
  /** The server's own step timings for the turn (its final turn record), in ms. */
  serverSteps: Array<{ step: string; ms: number }>;
};

export type DriveOptions = {
  baseUrl: string;
  /** Stop each user after this many turns... */
  turnsPerUser: number;
  /** ...or when this many seconds have passed (a turn under way is finished). */
  seconds: number;
  requestTimeoutMs: number;
};

const QUESTIONS = [
  'Hi, I am a night-shift nurse in Lisbon and I keep a small vegetable garden.',
  'What could I cook tonight with lentils, spinach and a lemon?',
  'How long does it keep in the fridge?',
  'Suggest a short stretching routine for after a twelve-hour shift.',
  'Which of my vegetables would grow best on a balcony in winter?',
  'Remind me what I said about my job earlier.',
];

export function markerFor(runId: string, user: number, turn: number): string {
  return `lb-${runId}-u${String(user).padStart(3, '0')}-t${turn}`;
}

function questionFor(runId: string, user: number, turn: number): string {
  return `${QUESTIONS[turn % QUESTIONS.length]} (ref ${markerFor(runId, user, turn)})`;
}

/** A guest as a browser becomes one: its first write (a new conversation) starts the session and sets the cookie. */
export async function openUser(baseUrl: string, index: number, timeoutMs: number): Promise<VirtualUser> {
  const first = await apiClient(baseUrl, '', timeoutMs).send('/api/conversations', {
    method: 'POST',
    body: { title: `Load user ${index}` },
  });
  const text = await first.text();
  if (!first.ok) throw new Error(`POST /api/conversations: ${first.status} ${text.slice(0, 300)}`);
  const cookie = withCookiesSet('', first);
  if (!cookie) throw new Error('the first write set no session cookie');
  const me = await apiClient(baseUrl, cookie, timeoutMs).json<{ user: { id: string } }>('/api/me');
  return {
    index,
    cookie,
    userId: me.user.id,
    conversationId: (JSON.parse(text) as { conversation: { id: string } }).conversation.id,
    turns: [],
  };
}

/** A Cookie header as a browser keeps it: the response's cookies replace those of the same name (an expired one goes). */
function withCookiesSet(cookie: string, response: Response): string {
  const jar = new Map(cookie ? cookie.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const) : []);
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0];
    const name = pair.slice(0, pair.indexOf('='));
    if (/;\s*max-age=0(?:;|$)/iu.test(line) || pair.endsWith('=')) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join('; ');
}

export function apiClient(baseUrl: string, cookie: string, timeoutMs: number) {
  const send = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      // The API refuses writes from another origin.
      headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  return {
    send,
    async json<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
      const response = await send(path, init);
      const text = await response.text();
      if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    },
  };
}

/** Every user sends turns until its count or the time is up; resolves when the last stream has ended. */
export async function driveUsers(users: VirtualUser[], runId: string, options: DriveOptions): Promise<LoadWindow> {
  const startedAt = performance.now();
  const monotonicStartUs = monotonicMicroseconds();
  const deadline = startedAt + options.seconds * 1000;
  await Promise.all(
    users.map(async (user) => {
      for (let turn = 0; turn < options.turnsPerUser && performance.now() < deadline; turn++) {
        const sample = await sendTurn(user, runId, turn, options);
        user.turns.push(sample);
        // A server that fails at once is not hammered in a tight loop.
        if (!sample.ok) await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }),
  );
  return { startedAt, endedAt: performance.now(), monotonicStartUs, monotonicEndUs: monotonicMicroseconds() };
}

/**
 * When the load ran: `performance.now()` for this process's figures, and the machine's monotonic
 * clock in µs (CLOCK_MONOTONIC, the clock of a V8 CPU profile's timestamps in any process) to take
 * the load's part of a server's profile.
 */
export type LoadWindow = { startedAt: number; endedAt: number; monotonicStartUs: number; monotonicEndUs: number };

function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

async function sendTurn(user: VirtualUser, runId: string, turn: number, options: DriveOptions): Promise<TurnSample> {
  const marker = markerFor(runId, user.index, turn);
  const sample: TurnSample = {
    marker,
    question: questionFor(runId, user.index, turn),
    accepted: false,
    ok: false,
    text: '',
    serverSteps: [],
  };
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  try {
    const response = await apiClient(options.baseUrl, user.cookie, options.requestTimeoutMs).send('/api/chat', {
      method: 'POST',
      body: { conversationId: user.conversationId, message: { text: sample.question } },
    });
    user.cookie = withCookiesSet(user.cookie, response);
    if (!response.ok || !response.body) {
      sample.error = `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`;
      return sample;
    }
    sample.accepted = true;
    const stream = await readUiStream(
      response.body,
      () => {
        sample.firstByteMs ??= since();
      },
      () => {
        sample.firstTokenMs ??= since();
      },
    );
    sample.completeMs = since();
    sample.text = stream.text;
    sample.serverSteps = stream.steps;
    if (stream.error) sample.error = `stream error: ${stream.error}`;
    else if (!stream.finished) sample.error = 'the stream ended without a finish chunk';
    else sample.ok = true;
  } catch (error) {
    sample.error = describeFailure(error);
  }
  return sample;
}

type UiStream = { text: string; finished: boolean; error?: string; steps: Array<{ step: string; ms: number }> };

/** Reads an AI SDK UI message stream (server-sent events) to its end. */
async function readUiStream(body: ReadableStream<Uint8Array>, onFirstByte: () => void, onFirstToken: () => void): Promise<UiStream> {
  const result: UiStream = { text: '', finished: false, steps: [] };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    onFirstByte();
    buffer += decoder.decode(next.value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const chunk = JSON.parse(line.slice(6)) as {
        type: string;
        delta?: string;
        errorText?: string;
        data?: { trace?: Array<{ step: string; ms: number }> };
      };
      if (chunk.type === 'text-delta' && chunk.delta) {
        onFirstToken();
        result.text += chunk.delta;
      } else if (chunk.type === 'error') result.error = chunk.errorText;
      else if (chunk.type === 'finish') result.finished = true;
      else if (chunk.type === 'data-turn' && chunk.data?.trace) result.steps = chunk.data.trace;
    }
  }
  return result;
}

/** "TypeError: fetch failed (ECONNRESET: other side closed)": fetch puts the network's reason in `cause`. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return `${error.name}: ${error.message}${cause ? ` (${code ? `${code}: ` : ''}${cause.message})` : ''}`;
}
