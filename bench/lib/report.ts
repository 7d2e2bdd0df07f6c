import { execSync } from 'node:child_process';
import os from 'node:os';
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';

/** The machine and commit a result came from, printed with every benchmark. */
/** `dataDir`: where an embedded database is kept (none: in memory). */
export function environment(dataDir?: string) {
  const git = (cmd: string) => {
    try {
      return execSync(cmd, { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      return 'unknown';
    }
  };
  return {
    commit: git('git rev-parse --short HEAD') + (git('git status --porcelain') ? ' (with uncommitted changes)' : ''),
    node: process.version,
    cpu: `${os.cpus()[0]?.model ?? 'unknown'} x${os.cpus().length}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    platform: `${os.platform()} ${os.release()}`,
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : `embedded PGlite (${dataDir ?? 'in memory'})`,
    at: new Date().toISOString(),
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const mean = (values: number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0);

export function markdownTable(header: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((row) => row.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export const progress = (message: string) => process.stderr.write(`${message}\n`);

/** A Vega-Lite spec rendered to SVG in Node (no browser, no canvas). */
export async function renderSvg(spec: vegaLite.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}
