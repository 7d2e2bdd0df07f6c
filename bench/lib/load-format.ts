import type { LoadResult } from './load-run';
import { markdownTable } from './report';

/** Targets at 50 users (the first-byte bound is on p95; the jobs' drain is judged by the run's --drain-limit). */
const LOAD_TARGETS = {
  postgres: { turnsPerSecond: 80, firstByteP95Ms: 300 },
  pglite: { turnsPerSecond: 40, firstByteP95Ms: 500 },
} as const;

/** The run as a person reads it: throughput, latencies beside the stub's floor, where the CPU went, the checks. */
export function formatLoadReport(result: LoadResult): string {
  const { load, stub, checks, machine } = result;
  const row = (name: string, p: { p50: number; p95: number; p99: number; max: number }, floor: number | string) => [
    name,
    p.p50,
    p.p95,
    p.p99,
    p.max,
    floor,
  ];
  // The targets are for 50 users; a smaller run says nothing about them.
  const target = result.server.database === 'unknown' || load.users < 50 ? undefined : LOAD_TARGETS[result.server.database];
  const lines = [
    `${load.users} users, ${load.seconds} s, database ${result.server.database}${result.server.startedHere ? `, ${layoutOf(result.server)}` : ` (server at ${result.server.url})`}`,
    `turns: ${load.ok} ok, ${load.errors} errors; ${load.turnsPerSecond} turns/s` +
      (target
        ? ` (target ≥ ${target.turnsPerSecond} at 50 users: ${load.turnsPerSecond >= target.turnsPerSecond ? 'met' : 'not met'})`
        : ''),
    ...load.errorSamples.map((e) => `  error: ${e}`),
    ...(result.server.endedEarly ? [`THE SERVER ENDED DURING THE RUN (${result.server.endedEarly}); see its log`] : []),
    '',
    markdownTable(
      ['ms', 'p50', 'p95', 'p99', 'max', 'stub floor'],
      [
        row('first byte', load.firstByteMs, target ? `target p95 ≤ ${target.firstByteP95Ms}` : '-'),
        row('first token', load.firstTokenMs, stub.floor.firstTokenMs),
        row('complete', load.completeMs, stub.floor.completionMs),
      ],
    ),
    `stub: ${stub.latencyMs} ms to a first token, ${stub.tokens} tokens at ${stub.tokensPerSecond}/s, embeddings ${stub.embedLatencyMs} ms; ` +
      `calls: ${stub.calls.chat} chat, ${stub.calls.memory} memory model, ${stub.calls.embeddings} embeddings`,
    '',
    'server steps (its turn records), ms:',
    markdownTable(
      ['step', 'p50', 'p95'],
      Object.entries(load.serverStepsMs).map(([step, ms]) => [step, ms.p50, ms.p95]),
    ),
    '',
    `CPU over the load (1.0 = one core; ${machine.cpus} cores): ` +
      Object.entries(machine.cpu.cores)
        .map(([part, cores]) => `${part} ${cores} (${machine.cpu.msPerTurn[part]} ms a turn)`)
        .join(', ') +
      `; machine busy ${Math.round(machine.cpu.machineBusy * 100)}%; load average ${machine.loadAverageBefore[0]} before, ${machine.loadAverageAfter[0]} after`,
    '',
    `stored: ${checks.api.questionsStored}/${checks.api.questionsAccepted} questions, ${checks.api.repliesComplete} complete replies; ` +
      `lost ${checks.api.lost.length}, incomplete ${checks.api.incomplete.length}, crossed ${checks.api.crossed.length + (checks.ownersInDatabase?.length ?? 0)}` +
      (checks.ownersInDatabase === null ? ' (owners checked through the API only)' : ''),
    ...[...checks.api.lost, ...checks.api.incomplete, ...checks.api.crossed, ...(checks.ownersInDatabase ?? [])]
      .slice(0, 10)
      .map((p) => `  ${p}`),
    checks.duplicatedInDatabase === null
      ? 'done twice: not checked (no database connection)'
      : `done twice: ${checks.duplicatedInDatabase.length} (exchanges, current facts, job claims)`,
    ...(checks.duplicatedInDatabase ?? []).slice(0, 10).map((p) => `  ${p}`),
    `post-turn work (${checks.jobs.via}): ${checks.jobs.doneWhenLoadEnded} of ${checks.jobs.expected} done when the load ended, ` +
      `${checks.jobs.donePerSecondAfterLoad}/s after it; ${JSON.stringify(checks.jobs.byStatus)}`,
    drainLine(checks.jobs),
    ...checks.jobs.errors.map((e) => `  job error: ${e}`),
    result.intact
      ? 'intact: nothing lost, incomplete, crossed or done twice; no errors; all post-turn work done within the limit'
      : 'NOT intact: see above',
  ];
  return lines.join('\n');
}

/** "1 app process, its own worker"; "2 app processes, 1 worker process". */
function layoutOf({ appProcesses, workerProcesses }: LoadResult['server']): string {
  const apps = `${appProcesses} app process${appProcesses === 1 ? '' : 'es'}`;
  if (workerProcesses === 0) return `${apps}, ${appProcesses === 1 ? 'its own worker' : 'a worker in each'}`;
  return `${apps}, ${workerProcesses} worker process${workerProcesses === 1 ? '' : 'es'}`;
}

/** The drain, as the run is judged on it: a miss is said in capitals, and fails the run. */
function drainLine(jobs: LoadResult['checks']['jobs']): string {
  const seconds = (jobs.drainMs / 1000).toFixed(1);
  if (jobs.drainedWithinLimit) return `jobs drained in ${seconds} s after the load (limit ${jobs.drainLimitMs / 1000} s)`;
  return (
    `JOBS NOT DRAINED within ${jobs.drainLimitMs / 1000} s after the load: ` +
    (jobs.finished ? `the last was done ${seconds} s after it` : `still not done ${seconds} s after it, when the wait gave up`)
  );
}
