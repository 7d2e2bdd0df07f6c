/**
 * npm run bench:load -- [--concurrency 50] [--seconds 30 | --turns N] [--url http://127.0.0.1:PORT]
 *   [--stub-latency-ms 200] [--stub-tokens 40] [--stub-rate 200] [--stub-embed-ms 20] [--stub-port 0]
 *   [--jobs-timeout 300] [--drain-limit 30] [--json bench/out/load-<time>.json] [--cpu-prof DIR]
 *   [--app-processes 1] [--workers 0]
 *
 * N concurrent guests send full chat turns to the production server (started here from the last
 * `npm run build`, on a temporary embedded PGlite or on DATABASE_URL; or the one at --url), which
 * talks to a local stub model of fixed latency and token rate. Reports turns per second and the
 * first byte, first token and completion percentiles beside the stub's own floor, then checks that
 * every message is stored whole under its own user and that all post-turn work finished, and how
 * long after the load it took (waited for up to --jobs-timeout; it must take at most --drain-limit).
 * Exits 1 when anything was lost, crossed or failed, or the jobs drained late. 127.0.0.1 only.
 * --app-processes N runs N app server processes on the one port (WEB_CONCURRENCY); --workers N runs
 * the post-turn work in N processes of their own (`npm run worker`, RUN_WORKER=false on the app;
 * DATABASE_URL only), and the checks then also look for work done twice.
 * --cpu-prof DIR: each server process started here writes a V8 CPU profile (its whole life: start,
 * load and drain) to DIR, and the report ends with where that time went, per turn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CpuProfile, profileTables, summarizeProfile } from './lib/cpu-profile';
import { formatLoadReport } from './lib/load-format';
import { runLoadBench } from './lib/load-run';
import { environment, progress } from './lib/report';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '50' },
    seconds: { type: 'string' },
    turns: { type: 'string' },
    url: { type: 'string' },
    'stub-latency-ms': { type: 'string', default: '200' },
    'stub-tokens': { type: 'string', default: '40' },
    'stub-rate': { type: 'string', default: '200' },
    'stub-embed-ms': { type: 'string', default: '20' },
    'stub-port': { type: 'string', default: '0' },
    'jobs-timeout': { type: 'string', default: '300' },
    'drain-limit': { type: 'string', default: '30' },
    'request-timeout': { type: 'string', default: '60' },
    json: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'app-processes': { type: 'string', default: '1' },
    workers: { type: 'string', default: '0' },
  },
});

const number = (name: keyof typeof values, min: number) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number of at least ${min} (got ${values[name]})`);
  return value;
};

const stamp = new Date().toISOString().replace(/[:.]/gu, '-');
const outDir = path.resolve('bench/out');
fs.mkdirSync(outDir, { recursive: true });
const jsonFile = values.json ?? path.join(outDir, `load-${stamp}.json`);
// --turns alone runs until every user sent them, within a bound of ten minutes.
const turnsPerUser = values.turns ? number('turns', 1) : Infinity;
const seconds = values.seconds ? number('seconds', 1) : values.turns ? 600 : 30;

// Ctrl+C: exit handlers stop the server this run started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

// The server started here inherits this environment: scripts/next-processes.ts reads it.
const profileDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
if (profileDir) {
  fs.mkdirSync(profileDir, { recursive: true });
  process.env.CPU_PROFILE_DIR = profileDir;
}
const profilesBefore = new Set(profileDir ? fs.readdirSync(profileDir) : []);

const env = environment();
progress(`load: ${values.concurrency} users, ${values.turns ? `${values.turns} turns each` : `${seconds} s`}; ${env.commit}, ${env.cpu}`);
try {
  const result = await runLoadBench({
    users: number('concurrency', 1),
    turnsPerUser,
    seconds,
    url: values.url,
    databaseUrl: process.env.DATABASE_URL?.trim() || undefined,
    stub: {
      latencyMs: number('stub-latency-ms', 0),
      tokens: number('stub-tokens', 1),
      tokensPerSecond: number('stub-rate', 1),
      embedLatencyMs: number('stub-embed-ms', 0),
      port: number('stub-port', 0),
    },
    appProcesses: number('app-processes', 1),
    workerProcesses: number('workers', 0),
    serverLogFile: `${jsonFile.replace(/\.json$/u, '')}.server.log`,
    requestTimeoutMs: number('request-timeout', 1) * 1000,
    jobsTimeoutMs: number('jobs-timeout', 1) * 1000,
    drainLimitMs: number('drain-limit', 0) * 1000,
    log: progress,
  });
  const report = { environment: { ...env, database: result.server.database }, ...result };
  fs.writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(formatLoadReport(result));
  if (profileDir) console.log(`\n${profileReport(profileDir, profilesBefore, result.load).join('\n')}`);
  console.log(`\nwrote ${path.relative(process.cwd(), jsonFile)}`);
  process.exitCode = result.intact ? 0 : 1;
} catch (error) {
  console.error(`load: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 2;
}

/**
 * The profiles this run's server processes wrote, each summarized per completed turn: the load's
 * part (what a turn costs while turns are served), and the whole life for what start and drain add.
 */
function profileReport(dir: string, before: Set<string>, load: { ok: number; monotonicUs: { start: number; end: number } }): string[] {
  const written = fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile') && !before.has(name));
  if (written.length === 0) return [`No CPU profile was written to ${dir} (the server must stop by SIGTERM, not be killed).`];
  const turns = Math.max(1, load.ok);
  return written.flatMap((name) => {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as CpuProfile;
    const whole = summarizeProfile(profile);
    const during = summarizeProfile(profile, process.cwd(), load.monotonicUs);
    const perTurn = (ms: number) => (ms / turns).toFixed(1);
    return [
      `## CPU profile ${path.join(dir, name)}: ${perTurn(during.busyMs)} ms a turn during the load (${(during.busyMs / 1000).toFixed(1)} s busy of ${(during.totalMs / 1000).toFixed(1)} s); ${perTurn(whole.busyMs)} ms with start and drain`,
      '',
      ...profileTables(during, turns, 'a turn', { places: 20, functions: 40 }),
      '',
    ];
  });
}
