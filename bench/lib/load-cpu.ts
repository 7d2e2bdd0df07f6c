import fs from 'node:fs';
import os from 'node:os';

/**
 * Where the CPU went during a run, from /proc (Linux): each process of the server's process groups
 * (the launcher, which holds the embedded PGlite, the app's server processes, and any worker processes), this bench process (driver and stub
 * model), and the whole machine, which also shows a real Postgres and anyone else's load.
 */
export type CpuSnapshot = { at: number; byLabel: Map<string, number>; machineBusy: number; machineTotal: number; bench: NodeJS.CpuUsage };

export type CpuReport = {
  /** Share of one core over the window, per part: 1.0 = one core busy the whole time. */
  cores: Record<string, number>;
  /** CPU time per completed turn, per part, in ms (post-turn work done meanwhile included). */
  msPerTurn: Record<string, number>;
  /** Busy share of the whole machine (all cores). */
  machineBusy: number;
  cpus: number;
};

const TICKS_PER_SECOND = 100;

export function cpuSnapshot(processGroups: number[] = []): CpuSnapshot {
  const byLabel = new Map<string, number>();
  if (processGroups.length > 0) {
    for (const entry of safeReaddir('/proc')) {
      if (!/^\d+$/u.test(entry)) continue;
      const stat = readProc(`/proc/${entry}/stat`);
      if (!stat) continue;
      // Fields after the command name (which may hold spaces): state is 3, pgrp 5, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!processGroups.includes(Number(fields[2]))) continue;
      const label = labelOf(readProc(`/proc/${entry}/cmdline`) ?? '');
      byLabel.set(label, (byLabel.get(label) ?? 0) + Number(fields[11]) + Number(fields[12]));
    }
  }
  const [, ...times] = (readProc('/proc/stat') ?? 'cpu 0 0 0 0').split('\n')[0].trim().split(/\s+/u).map(Number);
  const idle = (times[3] ?? 0) + (times[4] ?? 0);
  const total = times.reduce((sum, t) => sum + (t || 0), 0);
  return { at: performance.now(), byLabel, machineBusy: total - idle, machineTotal: total, bench: process.cpuUsage() };
}

export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot, turns: number): CpuReport {
  const seconds = (after.at - before.at) / 1000;
  const cores: Record<string, number> = {};
  for (const [label, ticks] of after.byLabel) {
    const used = round2((ticks - (before.byLabel.get(label) ?? 0)) / TICKS_PER_SECOND / seconds);
    if (used > 0) cores[label] = used;
  }
  const benchMicros = after.bench.user - before.bench.user + after.bench.system - before.bench.system;
  cores['bench (driver + stub model)'] = round2(benchMicros / 1e6 / seconds);
  const total = after.machineTotal - before.machineTotal;
  const msPerTurn = Object.fromEntries(
    Object.entries(cores).map(([label, used]) => [label, Math.round((used * seconds * 1000) / Math.max(1, turns))]),
  );
  return {
    cores,
    msPerTurn,
    machineBusy: total > 0 ? round2((after.machineBusy - before.machineBusy) / total) : 0,
    cpus: os.cpus().length,
  };
}

function labelOf(cmdline: string): string {
  const args = cmdline.split('\0').join(' ');
  if (args.includes('scripts/start.ts')) return 'launcher (holds the embedded database)';
  if (args.includes('scripts/server.ts')) return 'app server (Next)';
  if (args.includes('scripts/worker.ts')) return 'worker';
  return 'other';
}

function readProc(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // the process ended meanwhile
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100;
