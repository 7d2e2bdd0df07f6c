/** V8 CPU profiles (`.cpuprofile`, as Chrome's DevTools open them) summarized by self time. */
export type CpuProfile = {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
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

/** Self time per function and per package (or project file), largest first, in ms. */
export function summarizeProfile(profile: CpuProfile, root = process.cwd()): ProfileSummary {
  // Self time per node: the samples that landed in it, each worth the interval before it.
  const selfMs = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url, functionName, root);
    totalMs += ms;
    if (place === '(idle)') idleMs += ms;
    const name = `${functionName || '(anonymous)'} ${place}${url ? `:${lineNumber + 1}` : ''}`;
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
