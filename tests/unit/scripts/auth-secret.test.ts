import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { authSecretFor } from '@/scripts/auth-secret';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-secret-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the generated auth secret', () => {
  it('is private to its data directory: two directories side by side get two secrets, each kept inside it', () => {
    const parent = tempDir();
    const first = path.join(parent, 'first');
    const second = path.join(parent, 'second');
    const secretOfFirst = authSecretFor(first);
    const secretOfSecond = authSecretFor(second);
    expect(secretOfFirst).not.toBe(secretOfSecond);
    expect(secretOfFirst.length).toBeGreaterThanOrEqual(32);
    for (const dir of [first, second]) {
      expect(modeOf(dir)).toBe(0o700);
      expect(modeOf(path.join(dir, 'auth-secret'))).toBe(0o600);
    }
    expect(fs.existsSync(path.join(parent, 'auth-secret'))).toBe(false);
    // Kept across restarts: sessions survive.
    expect(authSecretFor(first)).toBe(secretOfFirst);
  });

  it('ignores a secret planted beside a data directory elsewhere', () => {
    const parent = tempDir();
    fs.writeFileSync(path.join(parent, 'auth-secret'), 'planted-by-someone-else');
    expect(authSecretFor(path.join(parent, 'pglite'))).not.toBe('planted-by-someone-else');
    expect(fs.readFileSync(path.join(parent, 'auth-secret'), 'utf8')).toBe('planted-by-someone-else');
  });

  it('carries the old .data/auth-secret of the default directory into it once, so existing sessions survive', async () => {
    // In a project directory of its own: the default directory is relative to the working directory.
    const project = tempDir();
    fs.mkdirSync(path.join(project, '.data'));
    fs.writeFileSync(path.join(project, '.data', 'auth-secret'), 'the-old-secret', { mode: 0o644 });
    const script = `import { authSecretFor } from ${JSON.stringify(path.resolve('scripts/auth-secret.ts'))}; console.log(authSecretFor('.data/pglite'));`;
    const run = () => promisify(execFile)(path.resolve('node_modules/.bin/tsx'), ['--eval', script], { cwd: project, timeout: 60_000 });
    expect((await run()).stdout.trim()).toBe('the-old-secret');
    expect(fs.existsSync(path.join(project, '.data', 'auth-secret'))).toBe(false);
    expect(modeOf(path.join(project, '.data', 'pglite', 'auth-secret'))).toBe(0o600);
    expect((await run()).stdout.trim()).toBe('the-old-secret');
  }, 90_000);
});
