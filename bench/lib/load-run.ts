import os from 'node:os';
import { type CpuReport, cpuBetween, cpuSnapshot } from './load-cpu';
import { driveUsers, type LoadWindow, openUser, type TurnSample, type VirtualUser } from './load-driver';
import { assertBuilt, assertLoopback, type RunningServer, startProductionServer } from './load-server';
import {
  type ApiCheck,
  checkDuplicatesInDatabase,
  checkOwnersInDatabase,
  checkThroughApi,
  type JobsCheck,
  waitForEpisodesThroughApi,
  waitForJobsInDatabase,
} from './load-verify';
import { percentile } from './report';
import { type StubModelOptions, startStubModel, stubReply } from './stub-model';

/**
 * One load run: the stub model, the production server (started here, or the one at `url`), the
 * users opened, the load driven, then the checks. The command line (bench/load.ts) and the e2e
 * spec (e2e/load.spec.ts) both run exactly this.
 */
export type LoadOptions = {
  users: number;
  turnsPerUser: number;
  seconds: number;
  stub: StubModelOptions;
  /** A running server to load instead of starting one (it must use the stub model for the floor to mean anything). */
  url?: string;
  /** A Postgres for the server started here, and for the checks (always for the checks when given). */
  databaseUrl?: string;
  serverLogFile: string;
  /** The layout of the server started here: app processes on one port (WEB_CONCURRENCY), and worker processes apart (needs `databaseUrl`; 0 = each app process runs its own). */
  appProcesses?: number;
  workerProcesses?: number;
  requestTimeoutMs: number;
  /** How long to wait for the post-turn work after the load; it must be done within `drainLimitMs` (default 30 s) for the run to pass. */
  jobsTimeoutMs: number;
  drainLimitMs?: number;
  log?: (line: string) => void;
};

type Percentiles = { p50: number; p95: number; p99: number; max: number };

export type LoadResult = {
  runId: string;
  server: {
    url: string;
    startedHere: boolean;
    database: 'pglite' | 'postgres' | 'unknown';
    env: Record<string, string>;
    appProcesses: number;
    workerProcesses: number;
    /** Set when the server started here ended before the run did. */
    endedEarly?: string;
  };
  stub: StubModelOptions & {
    floor: { firstTokenMs: number; completionMs: number };
    calls: { chat: number; memory: number; embeddings: number };
  };
  load: {
    users: number;
    seconds: number;
    turns: number;
    ok: number;
    errors: number;
    errorSamples: string[];
    turnsPerSecond: number;
    firstByteMs: Percentiles;
    firstTokenMs: Percentiles;
    completeMs: Percentiles;
    /** The server's own step timings (its turn records): where a turn's time went on the server. */
    serverStepsMs: Record<string, { p50: number; p95: number }>;
    /** The load's start and end on the machine's monotonic clock (µs), to cut the load out of a CPU profile. */
    monotonicUs: { start: number; end: number };
  };
  machine: { cpus: number; loadAverageBefore: number[]; loadAverageAfter: number[]; cpu: CpuReport };
  checks: {
    api: ApiCheck;
    ownersInDatabase: string[] | null;
    /** Work done twice (checkDuplicatesInDatabase), looked at once the jobs drained; null without a database connection. */
    duplicatedInDatabase: string[] | null;
    jobs: JobsCheck & { drainLimitMs: number; drainedWithinLimit: boolean };
  };
  /** Nothing lost, incomplete, crossed or done twice, no errors, every post-turn job done within the drain limit. */
  intact: boolean;
};

/** Env settings of the server that shape the figures, recorded with them. */
const RECORDED_ENV = ['DB_POOL_MAX', 'PGLITE_MAX_CONNECTIONS', 'RUN_WORKER', 'WORKER_POLL_MS', 'HISTORY_WINDOW', 'EPISODE_SCOPE'];

export async function runLoadBench(options: LoadOptions): Promise<LoadResult> {
  const log = options.log ?? (() => {});
  if (options.url) assertLoopback(options.url, '--url');
  if (options.databaseUrl) assertLoopback(options.databaseUrl, 'DATABASE_URL');
  if (!options.url) assertBuilt();
  const runId = Date.now().toString(36);
  const stub = await startStubModel(options.stub);
  let server: RunningServer | undefined;
  try {
    if (!options.url) {
      log(
        `starting the production server (${options.databaseUrl ? 'DATABASE_URL' : 'embedded PGlite'}); its output goes to ${options.serverLogFile}`,
      );
      server = await startProductionServer({
        stubBaseURL: stub.baseURL,
        databaseUrl: options.databaseUrl,
        logFile: options.serverLogFile,
        appProcesses: options.appProcesses,
        workers: options.workerProcesses,
      });
    } else {
      log(`loading ${options.url}; for the stub's floor to apply, it must run with OPENAI_BASE_URL=${stub.baseURL} (see --stub-port)`);
    }
    const baseUrl = options.url ?? server!.baseUrl;
    const databaseUrl = options.databaseUrl ?? server?.databaseUrl;

    log(`opening ${options.users} guests, each with a conversation`);
    const users = await Promise.all(Array.from({ length: options.users }, (_, i) => openUser(baseUrl, i, options.requestTimeoutMs)));

    log(
      `driving ${options.users} users for ${options.turnsPerUser === Infinity ? `${options.seconds} s` : `${options.turnsPerUser} turns each (at most ${options.seconds} s)`}`,
    );
    const loadAverageBefore = os.loadavg();
    const cpuBefore = cpuSnapshot(server?.processGroups);
    const window = await driveUsers(users, runId, {
      baseUrl,
      turnsPerUser: options.turnsPerUser,
      seconds: options.seconds,
      requestTimeoutMs: options.requestTimeoutMs,
    });
    const cpu = cpuBetween(
      cpuBefore,
      cpuSnapshot(server?.processGroups),
      users.reduce((sum, u) => sum + u.turns.filter((t) => t.ok).length, 0),
    );
    const loadAverageAfter = os.loadavg();

    log('checking what was stored, and waiting for the post-turn work');
    // The wait starts with the load's end, beside the checks, so the drain time is not theirs.
    const drained = databaseUrl
      ? waitForJobsInDatabase(databaseUrl, users, window.endedAt, options.jobsTimeoutMs, () => !server?.exited())
      : waitForEpisodesThroughApi(baseUrl, users, window.endedAt, options.jobsTimeoutMs);
    // A server of our own answers from the stub, word for word; another is held to what it streamed.
    const api = await checkThroughApi(baseUrl, runId, users, server ? (marker) => stubReply(marker, options.stub.tokens) : undefined);
    const ownersInDatabase = databaseUrl ? await checkOwnersInDatabase(databaseUrl, users) : null;
    const drainLimitMs = options.drainLimitMs ?? 30_000;
    const waited = await drained;
    const duplicatedInDatabase = databaseUrl ? await checkDuplicatesInDatabase(databaseUrl, users) : null;
    const jobs = { ...waited, drainLimitMs, drainedWithinLimit: waited.finished && waited.drainMs <= drainLimitMs };
    log(
      jobs.drainedWithinLimit
        ? `jobs drained in ${(jobs.drainMs / 1000).toFixed(1)} s after the load`
        : `JOBS NOT DRAINED within ${drainLimitMs / 1000} s after the load (${jobs.finished ? `done after ${(jobs.drainMs / 1000).toFixed(1)} s` : 'still not done'})`,
    );

    const load = summariseLoad(users, window);
    const endedEarly = server?.exited();
    return {
      runId,
      server: {
        url: baseUrl,
        startedHere: !options.url,
        database: server?.database ?? (options.databaseUrl ? 'postgres' : 'unknown'),
        env: server ? Object.fromEntries(RECORDED_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!])) : {},
        appProcesses: options.appProcesses ?? 1,
        workerProcesses: options.workerProcesses ?? 0,
        endedEarly,
      },
      stub: { ...options.stub, floor: stub.floor, calls: { ...stub.calls } },
      load,
      machine: {
        cpus: os.cpus().length,
        loadAverageBefore: loadAverageBefore.map(round1),
        loadAverageAfter: loadAverageAfter.map(round1),
        cpu,
      },
      checks: { api, ownersInDatabase, duplicatedInDatabase, jobs },
      intact:
        !endedEarly &&
        load.errors === 0 &&
        api.lost.length === 0 &&
        api.incomplete.length === 0 &&
        api.crossed.length === 0 &&
        (ownersInDatabase ?? []).length === 0 &&
        (duplicatedInDatabase ?? []).length === 0 &&
        jobs.drainedWithinLimit,
    };
  } finally {
    await server?.stop();
    await stub.close();
  }
}

function summariseLoad(users: VirtualUser[], window: LoadWindow): LoadResult['load'] {
  const turns = users.flatMap((u) => u.turns);
  const ok = turns.filter((t) => t.ok);
  const seconds = (window.endedAt - window.startedAt) / 1000;
  const values = (pick: (t: TurnSample) => number | undefined) => ok.map(pick).filter((v): v is number => v !== undefined);
  return {
    users: users.length,
    seconds: round1(seconds),
    turns: turns.length,
    ok: ok.length,
    errors: turns.length - ok.length,
    errorSamples: [...new Set(turns.filter((t) => !t.ok).map((t) => t.error ?? 'unknown'))].slice(0, 5),
    turnsPerSecond: round1(ok.length / seconds),
    firstByteMs: percentiles(values((t) => t.firstByteMs)),
    firstTokenMs: percentiles(values((t) => t.firstTokenMs)),
    completeMs: percentiles(values((t) => t.completeMs)),
    serverStepsMs: stepPercentiles(ok),
    monotonicUs: { start: window.monotonicStartUs, end: window.monotonicEndUs },
  };
}

function stepPercentiles(turns: TurnSample[]): Record<string, { p50: number; p95: number }> {
  const byStep = new Map<string, number[]>();
  for (const turn of turns) {
    for (const { step, ms } of turn.serverSteps) {
      if (!byStep.has(step)) byStep.set(step, []);
      byStep.get(step)!.push(ms);
    }
  }
  return Object.fromEntries(
    [...byStep].map(([step, ms]) => [step, { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)) }]),
  );
}

function percentiles(values: number[]): Percentiles {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length ? Math.max(...values) : 0,
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
