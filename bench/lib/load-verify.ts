import { openPostgres } from '../../db/postgres-url';
import { apiClient, markerFor, type VirtualUser } from './load-driver';
import { MARKER } from './stub-model';

/**
 * After the load: is everything there, whole, and with its owner? Through the API as each user (what
 * they would see), and, with a database connection, underneath it: each row's owner and every
 * post-turn job, waited for until none is left to run.
 */
export type ApiCheck = {
  /** Questions the server took (answered with a stream); each must be stored with its complete reply. */
  questionsAccepted: number;
  questionsStored: number;
  repliesComplete: number;
  lost: string[];
  incomplete: string[];
  crossed: string[];
};

export type JobsCheck = {
  via: 'database' | 'api (episodes indexed)';
  expected: number;
  byStatus: Record<string, number>;
  /** Done (or indexed) when the load ended, and how fast the rest went after it. */
  doneWhenLoadEnded: number;
  donePerSecondAfterLoad: number;
  finished: boolean;
  /** From the end of the load until no post-turn work was left (or the wait gave up). */
  drainMs: number;
  errors: string[];
};

type StoredMessage = { id: string; role: string; content: string; status: string; replyTo: string | null; userId: string };

export async function checkThroughApi(
  baseUrl: string,
  runId: string,
  users: VirtualUser[],
  expectedReply?: (marker: string) => string,
): Promise<ApiCheck> {
  const check: ApiCheck = { questionsAccepted: 0, questionsStored: 0, repliesComplete: 0, lost: [], incomplete: [], crossed: [] };
  for (const user of users) {
    const api = apiClient(baseUrl, user.cookie, 60_000);
    const { messages } = await api.json<{ messages: StoredMessage[] }>(`/api/conversations/${user.conversationId}/messages`);
    const own = markerFor(runId, user.index, 0).replace(/t0$/u, '');
    const sent = new Set(user.turns.map((t) => t.question));
    for (const message of messages) {
      const foreign = (message.content.match(MARKER) ?? []).filter((marker) => !marker.startsWith(own));
      if (message.userId !== user.userId || foreign.length > 0 || (message.role === 'user' && !sent.has(message.content))) {
        check.crossed.push(
          `user ${user.index}: message ${message.id} (${message.role}) ${foreign.length ? `holds ${foreign.join(', ')}` : 'is not one of theirs'}`,
        );
      }
    }
    for (const turn of user.turns.filter((t) => t.accepted)) {
      check.questionsAccepted++;
      const question = messages.find((m) => m.role === 'user' && m.content === turn.question);
      if (!question) {
        check.lost.push(`user ${user.index}: question ${turn.marker}`);
        continue;
      }
      check.questionsStored++;
      const reply = messages.find((m) => m.role === 'assistant' && m.replyTo === question.id);
      const wanted = expectedReply?.(turn.marker) ?? turn.text;
      if (!reply) check.lost.push(`user ${user.index}: the reply to ${turn.marker}`);
      else if (reply.status !== 'complete' || reply.content !== wanted || reply.content !== turn.text) {
        check.incomplete.push(
          `user ${user.index}: the reply to ${turn.marker} is ${reply.status}, ${reply.content.length} of ${wanted.length} characters${reply.content === turn.text ? '' : ', not what was streamed'}`,
        );
      } else check.repliesComplete++;
    }
  }
  return check;
}

/** Every row of the run's conversations belongs to that conversation's user, as the run knows it. */
export async function checkOwnersInDatabase(databaseUrl: string, users: VirtualUser[]): Promise<string[]> {
  const sql = openPostgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const ownerOf = new Map(users.map((u) => [u.conversationId, u.userId]));
    const rows = await sql<Array<{ id: string; conversation_id: string; user_id: string; owner: string }>>`
      select m.id, m.conversation_id, m.user_id, c.user_id as owner
      from messages m join conversations c on c.id = m.conversation_id
      where m.conversation_id = any(${[...ownerOf.keys()]}::uuid[])`;
    return rows
      .filter((r) => r.user_id !== r.owner || r.owner !== ownerOf.get(r.conversation_id))
      .map((r) => `message ${r.id} is stored for user ${r.user_id} in a conversation of ${r.owner}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Nothing done twice, however many processes ran the work: each reply remembered as one exchange,
 * no fact stored twice as current for a user, and every job claimed once (a claim counts an attempt;
 * with no errors, a second attempt means two processes took the same job).
 */
export async function checkDuplicatesInDatabase(databaseUrl: string, users: VirtualUser[]): Promise<string[]> {
  const sql = openPostgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const conversationIds = users.map((u) => u.conversationId);
    const userIds = users.map((u) => u.userId);
    const episodes = await sql<Array<{ id: string; n: number }>>`
      select assistant_message_id as id, count(*)::int as n from episodes
      where conversation_id = any(${conversationIds}::uuid[]) group by 1 having count(*) > 1`;
    const facts = await sql<Array<{ user_id: string; content: string; n: number }>>`
      select user_id, content, count(*)::int as n from facts
      where user_id = any(${userIds}::uuid[]) and status = 'active' group by 1, 2 having count(*) > 1`;
    const jobs = await sql<Array<{ kind: string; message_id: string; attempts: number }>>`
      select kind, message_id, attempts from jobs where conversation_id = any(${conversationIds}::uuid[]) and attempts > 1`;
    return [
      ...episodes.map((e) => `reply ${e.id} is remembered as ${e.n} exchanges`),
      ...facts.map((f) => `user ${f.user_id} holds "${f.content}" ${f.n} times as current`),
      ...jobs.map((j) => `job ${j.kind} of message ${j.message_id} was claimed ${j.attempts} times`),
    ];
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Waits (at most `timeoutMs`) until none of the run's post-turn jobs is pending, running or due for a retry. */
export async function waitForJobsInDatabase(
  databaseUrl: string,
  users: VirtualUser[],
  loadEndedAt: number,
  timeoutMs: number,
  /** False once nothing can run the jobs any more (the server started for the run is gone). */
  workerAlive: () => boolean = () => true,
): Promise<JobsCheck> {
  const sql = openPostgres(databaseUrl, { max: 1, onnotice: () => {} });
  const conversationIds = users.map((u) => u.conversationId);
  const replies = users.reduce((sum, u) => sum + u.turns.filter((t) => t.accepted).length, 0);
  try {
    const deadline = Date.now() + timeoutMs;
    let doneWhenLoadEnded: number | undefined;
    for (;;) {
      const rows = await sql<Array<{ status: string; n: number }>>`
        select status, count(*)::int as n from jobs where conversation_id = any(${conversationIds}::uuid[]) group by status`;
      const [{ kinds }] = await sql<Array<{ kinds: number }>>`
        select count(distinct kind)::int as kinds from jobs where conversation_id = any(${conversationIds}::uuid[])`;
      const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      const total = rows.reduce((sum, r) => sum + r.n, 0);
      const open = total - (byStatus.done ?? 0);
      doneWhenLoadEnded ??= byStatus.done ?? 0;
      if (open === 0 || Date.now() > deadline || !workerAlive()) {
        const errors = await sql<Array<{ kind: string; last_error: string }>>`
          select kind, last_error from jobs where conversation_id = any(${conversationIds}::uuid[]) and last_error is not null limit 5`;
        return {
          via: 'database',
          expected: replies * kinds,
          byStatus,
          doneWhenLoadEnded,
          donePerSecondAfterLoad: perSecond((byStatus.done ?? 0) - doneWhenLoadEnded, loadEndedAt),
          finished: open === 0 && total === replies * kinds,
          drainMs: Math.round(performance.now() - loadEndedAt),
          errors: errors.map((e) => `${e.kind}: ${e.last_error.split('\n')[0]}`),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Without a database connection: each accepted turn becomes one remembered exchange once its post-turn work ran. */
export async function waitForEpisodesThroughApi(
  baseUrl: string,
  users: VirtualUser[],
  loadEndedAt: number,
  timeoutMs: number,
): Promise<JobsCheck> {
  const deadline = Date.now() + timeoutMs;
  const expected = users.reduce((sum, u) => sum + u.turns.filter((t) => t.ok).length, 0);
  let doneWhenLoadEnded: number | undefined;
  for (;;) {
    let indexed = 0;
    for (const user of users) {
      indexed += (await apiClient(baseUrl, user.cookie, 60_000).json<{ total: number }>('/api/episodes?limit=1')).total;
    }
    doneWhenLoadEnded ??= indexed;
    if (indexed >= expected || Date.now() > deadline) {
      return {
        via: 'api (episodes indexed)',
        expected,
        byStatus: { indexed, missing: expected - indexed },
        doneWhenLoadEnded,
        donePerSecondAfterLoad: perSecond(indexed - doneWhenLoadEnded, loadEndedAt),
        finished: indexed >= expected,
        drainMs: Math.round(performance.now() - loadEndedAt),
        errors: [],
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const perSecond = (count: number, since: number) => Math.round((count / Math.max(0.001, (performance.now() - since) / 1000)) * 10) / 10;
