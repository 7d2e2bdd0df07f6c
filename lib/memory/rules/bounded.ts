import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { getConfig } from '@/lib/config';
import { logError } from '@/lib/log';
import { ruleWords } from '@/lib/text/rule-words';
import type { RecentTurn } from './rewrite';
import type { SummaryInput } from './summarise';
import type { RuleName, Rules, RuleTask } from './thread';

/**
 * The rules as the app calls them: each in a worker thread (./thread.ts), never on the event loop,
 * each text within a time budget. A rule that runs past RULE_BUDGET_MS gives up on that text (its
 * thread is stopped and replaced) and the caller gets what the rule finds in no text (no facts, the
 * question as its own query); a call that waits longer than RULE_WAIT_MS for a free thread gives up
 * the same way. Every give-up is counted and logged without the text. Inputs are normalized first:
 * runs of spaces and of line breaks collapsed to one, and cut to RULE_INPUT_MAX_CHARS.
 */
type Outcome<T> = { value: T; gaveUp: boolean };

let given = 0;

/** How many texts the rules gave up on in this process. */
export function ruleGiveUps(): number {
  return given;
}

class RuleGaveUp extends Error {
  override name = 'RuleGaveUp';
  constructor(
    message: string,
    readonly ranOut = false,
  ) {
    super(message);
  }
}

/** Text as the rules read it: one space for any run of spaces or tabs, one line break for any run of breaks, bounded. */
export function forRules(text: string): string {
  const collapsed = text.replace(/[^\S\n]+/g, ' ').replace(/ ?\n[\n ]*/g, '\n');
  return boundLength(collapsed);
}

/** Text cut to the bound only, where the rule answers with offsets into the text as written. */
function boundLength(text: string): string {
  const max = getConfig().RULE_INPUT_MAX_CHARS;
  if (text.length <= max) return text;
  // Never half a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return text.slice(0, end);
}

const turns = (recent: RecentTurn[]) => recent.map((turn) => ({ ...turn, content: forRules(turn.content) }));
const inputs = (messages: SummaryInput[]) => messages.map((message) => ({ ...message, content: forRules(message.content) }));

type R<K extends RuleName> = Awaited<ReturnType<Rules[K]>>;
type P<K extends RuleName> = Parameters<Rules[K]>;

export const rules = {
  asksSomething: (text: string) => value(run('asksSomething', [forRules(text)], false)),
  asksForMany: (question: string) => value(run('asksForMany', [forRules(question)], false)),
  asksWhatHappened: (question: string) => value(run('asksWhatHappened', [forRules(question)], false)),
  // Given up, nothing is decided: no write rather than a duplicate.
  decideFactUpdate: (...[candidate, similar]: P<'decideFactUpdate'>) =>
    value(run('decideFactUpdate', [candidate, similar.map((fact) => ({ ...fact, text: forRules(fact.text) }))], [])),
  detectForgetRequest: (text: string) => value(run('detectForgetRequest', [forRules(text)], null)),
  detectRewriteTrigger: (question: string, priorUserTurns: number) =>
    run('detectRewriteTrigger', [forRules(question), priorUserTurns], { needed: false, reason: 'the rules gave up on this text' }),
  extractFactCandidates: (text: string, now: Date) => value(run('extractFactCandidates', [forRules(text), now], [])),
  factsToForget: (...[request, facts]: P<'factsToForget'>) =>
    value(run('factsToForget', [request, facts.map((fact) => ({ ...fact, text: forRules(fact.text) }))], [])),
  // Offsets into the question as written: only cut, never collapsed.
  forgetRequestObject: (text: string) => value(run('forgetRequestObject', [boundLength(text)], null)),
  rewriteOffline: (question: string, recent: RecentTurn[], now: Date) =>
    run('rewriteOffline', [forRules(question), turns(recent), now], { query: question, terms: [], datesResolved: [] }),
  absolutizeRelativeDates: (text: string, now: Date) =>
    value(run('absolutizeRelativeDates', [forRules(text), now], { text, resolved: [] })),
  slotsNamed: (text: string) => value(run('slotsNamed', [forRules(text)], [])),
  // Given up, whom each text is about is unsaid: no evidence is set back.
  subjectsOf: (texts: string[]) =>
    value(
      run(
        'subjectsOf',
        [texts.map(forRules)],
        texts.map(() => 'unsaid' as const),
      ),
    ),
  summariseExtractive: (previous: string | null, messages: SummaryInput[]) =>
    run('summariseExtractive', [previous, inputs(messages)], previous ?? ''),
  // Given up, no kind of value is asked: every text may answer.
  valueAsked: (question: string) => value(run('valueAsked', [forRules(question)], null)),
  // Given up, whether each text holds a number cannot be told (null).
  numbersHeld: async (texts: string[]): Promise<Array<boolean | null>> => {
    const held = await run('numbersHeld', [texts.map(forRules)], []);
    return held.gaveUp ? texts.map(() => null) : held.value;
  },
};

async function value<T>(outcome: Promise<Outcome<T>>): Promise<T> {
  return (await outcome).value;
}

// What each rule answered (or gave up on) for its last texts, by a hash of the rule and what it
// read: a turn reads the same texts again (the recent window, the offline model's context), and a
// slow text costs its budget once, not once per turn.
const REMEMBERED = 2000;
const answers = new Map<string, Outcome<unknown>>();

/** The rule and what it reads; of the time it is read at only the day, which is all a rule's dates hold. */
function inputKey(rule: RuleName, args: unknown[]): string {
  const read = args.map((arg) => (arg instanceof Date ? arg.toISOString().slice(0, 10) : arg));
  return createHash('sha256').update(rule).update(JSON.stringify(read)).digest('base64');
}

function recall<T>(key: string): Outcome<T> | undefined {
  const known = answers.get(key) as Outcome<T> | undefined;
  if (!known) return undefined;
  // Newest last: the oldest answer goes first when the map is full.
  answers.delete(key);
  answers.set(key, known);
  return { value: structuredClone(known.value), gaveUp: known.gaveUp };
}

function remember(key: string, outcome: Outcome<unknown>): void {
  if (answers.size >= REMEMBERED) answers.delete(answers.keys().next().value!);
  answers.set(key, { value: structuredClone(outcome.value), gaveUp: outcome.gaveUp });
}

async function run<K extends RuleName>(rule: K, args: P<K>, fallback: R<K>): Promise<Outcome<R<K>>> {
  const key = inputKey(rule, args);
  const known = recall<R<K>>(key);
  if (known) {
    if (known.gaveUp) given++;
    return known;
  }
  const { RULE_BUDGET_MS, RULE_WAIT_MS } = getConfig();
  const { piscina, ready } = pool();
  // A thread loading the rules is not a slow text: the bounds count from when the pool is ready.
  await ready;
  const controller = new AbortController();
  const { port1, port2 } = new MessageChannel();
  // Waiting for a thread has its own bound; the budget starts when the rule does.
  let timer = setTimeout(() => controller.abort(new RuleGaveUp(`waited ${RULE_WAIT_MS} ms for a thread`)), RULE_WAIT_MS);
  port1.once('message', () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new RuleGaveUp(`ran past its budget of ${RULE_BUDGET_MS} ms`, true)), RULE_BUDGET_MS);
  });
  const task: RuleTask = { rule, args, started: port2 };
  try {
    const answer = { value: (await piscina.run(task, { transferList: [port2], signal: controller.signal })) as R<K>, gaveUp: false };
    remember(key, answer);
    return answer;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    given++;
    // Only a text that ran out of time is given up on for good; one that waited for a thread may be read next time.
    if (controller.signal.reason instanceof RuleGaveUp && controller.signal.reason.ranOut) remember(key, { value: fallback, gaveUp: true });
    const reason = controller.signal.reason instanceof Error ? controller.signal.reason.message : 'stopped';
    const chars = JSON.stringify(args)?.length ?? 0;
    logError('a rule gave up on a text', new RuleGaveUp(`${rule} ${reason} (a text of ${chars} characters)`));
    return { value: fallback, gaveUp: true };
  } finally {
    clearTimeout(timer);
    port1.close();
  }
}

type Pool = { piscina: Piscina; ready: Promise<unknown> };
const holder = globalThis as typeof globalThis & { __memlensRules?: Pool };

/**
 * One pool per process, started at the first call (or by warmRules at start-up). Its threads load
 * the rules' TypeScript through tsx, as `npm start` loads the server; `ready` settles once a task
 * per thread has run.
 */
function pool(): Pool {
  holder.__memlensRules ??= startPool();
  return holder.__memlensRules;
}

function startPool(): Pool {
  const size = threads();
  const piscina = new Piscina({
    filename: path.join(process.cwd(), 'lib/memory/rules/thread.ts'),
    execArgv: ['--import', 'tsx', '--conditions=react-server'],
    minThreads: size,
    maxThreads: size,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Built here once from WordNet and CC-CEDICT, which the threads then need not load (lib/text/rule-words.ts).
    workerData: { ruleWords: ruleWords() },
  });
  const warm: RuleTask = { rule: 'asksSomething', args: [''] };
  return { piscina, ready: Promise.all(Array.from({ length: size }, () => piscina.run(warm))) };
}

function threads(): number {
  return getConfig().RULE_THREADS ?? Math.max(2, Math.min(4, os.availableParallelism()));
}

/** Starts the rules' threads; resolves once they have loaded the rules (the server waits for it before its first request). */
export async function warmRules(): Promise<void> {
  await pool().ready;
}

/** Stops the rules' threads (scripts that end, tests); the next call starts them again. */
export async function closeRules(): Promise<void> {
  const running = holder.__memlensRules;
  holder.__memlensRules = undefined;
  await running?.piscina.destroy();
}
