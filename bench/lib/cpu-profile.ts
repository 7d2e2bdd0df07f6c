import fs from 'node:fs';
import { FlattenMap, originalPositionFor, type TraceMap } from '@jridgewell/trace-mapping';

/** V8 CPU profiles (`.cpuprofile`, as Chrome's DevTools open them) summarized by self time. */
export type CpuProfile = {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number } }>;
  /** µs on the machine's monotonic clock, as are the samples' times (the start plus the deltas so far). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};

export type ProfileSummary = {
  /** Milliseconds of samples in the profile, idle included. */
  totalMs: number;
  /** Milliseconds the thread was busy (everything but `(idle)`). */
  busyMs: number;
  byPlace: Array<[string, number]>;
  byFunction: Array<[string, number]>;
};

/**
 * Self time per function and per package (or project file), largest first, in ms; only of the
 * samples taken within `windowUs` (monotonic µs) when given.
 */
export function summarizeProfile(profile: CpuProfile, root = process.cwd(), windowUs?: { start: number; end: number }): ProfileSummary {
  // Self time per node: the samples that landed in it, each worth the interval before it.
  const selfMs = new Map<number, number>();
  let at = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (windowUs && (at < windowUs.start || at > windowUs.end)) continue;
    selfMs.set(id, (selfMs.get(id) ?? 0) + delta / 1000);
  }
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (ms === 0) continue;
    // A function of the production build is named by its source (the build's source maps), not its minified chunk.
    const { functionName, url, line } = sourceMaps.original(node.callFrame);
    const place = placeOf(url, functionName, root);
    totalMs += ms;
    if (place === '(idle)') idleMs += ms;
    const name = `${functionName || '(anonymous)'} ${place}${url ? `:${line}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  }
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs, busyMs: totalMs - idleMs, byPlace: sorted(byPlace), byFunction: sorted(byFunction) };
}

/** The summary's top entries as two Markdown tables, each time divided by `per` (runs, turns). */
export function profileTables(summary: ProfileSummary, per: number, unit: string, rows = { places: 15, functions: 30 }): string[] {
  const row = ([name, ms]: [string, number]) =>
    `| ${name} | ${(ms / per).toFixed(2)} | ${((100 * ms) / Math.max(1, summary.busyMs)).toFixed(1)} |`;
  return [
    `| package or file | ms ${unit} | % of busy |`,
    '| --- | --- | --- |',
    ...summary.byPlace
      .filter(([name]) => name !== '(idle)')
      .slice(0, rows.places)
      .map(row),
    '',
    `| function | ms ${unit} | % of busy |`,
    '| --- | --- | --- |',
    ...summary.byFunction
      .filter(([name]) => !name.startsWith('(idle)'))
      .slice(0, rows.functions)
      .map(row),
  ];
}

/** Where a function lives: its npm package, the project file, or what V8 calls it (idle, GC, program). */
function placeOf(url: string, functionName: string, root: string): string {
  if (!url) return `(${functionName.replace(/[()]/gu, '') || 'native'})`;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/u.exec(url);
  if (inPackage) return inPackage[1];
  return url.replace(/^file:\/\//u, '').replace(`${root}/`, '');
}

/** The build's chunks have source maps beside them (`chunk.js.map`): where a position of a chunk came from. */
class SourceMaps {
  private readonly maps = new Map<string, TraceMap | null>();

  original(frame: CpuProfile['nodes'][number]['callFrame']): {
    functionName: string;
    url: string;
    line: number;
  } {
    const line = frame.lineNumber + 1;
    const map = this.mapOf(frame.url);
    if (!map) return { functionName: frame.functionName, url: frame.url, line };
    const found = originalPositionFor(map, { line, column: frame.columnNumber ?? 0 });
    if (!found.source) return { functionName: frame.functionName, url: frame.url, line };
    // Sources are named relative to the chunk ("../../../lib/chat-turn.ts", "../../../node_modules/%40ai-sdk/…");
    // a source that names no package or project file keeps the chunk's place.
    const source = decodeURIComponent(found.source).replace(/^(?:\.\.\/)+/u, '');
    // drizzle's maps name its files from its own folder, which comes out as "node_modules/src/…": no package.
    const known = /^node_modules\/(?!src\/)/u.test(source) || /^(?:app|lib|db|components)\//u.test(source);
    const functionName = found.name ?? frame.functionName;
    return known ? { functionName, url: source, line: found.line ?? line } : { functionName, url: frame.url, line };
  }

  private mapOf(url: string): TraceMap | null {
    if (!url.includes('/.next/')) return null;
    const file = `${url.replace(/^file:\/\//u, '')}.map`;
    if (!this.maps.has(file)) {
      try {
        this.maps.set(file, new FlattenMap(fs.readFileSync(file, 'utf8')));
      } catch {
        this.maps.set(file, null); // no map beside it
      }
    }
    return this.maps.get(file)!;
  }
}

/** Read once per process: a profile is summarized more than once (during the load, and its whole life). */
const sourceMaps = new SourceMaps();
