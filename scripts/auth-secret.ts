import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from './data-dir';

const FILE = 'auth-secret';

/**
 * Accounts need a secret to sign session cookies. Without BETTER_AUTH_SECRET, one is generated on
 * the first start and kept in the data directory itself (`auth-secret`, mode 0600 in the 0700
 * directory), so sessions survive restarts and no two data directories share a secret (one kept
 * beside the directory was shared by every directory there: /tmp/a and /tmp/b both used /tmp/auth-secret).
 */
export function authSecretFor(dataDir: string): string {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, FILE);
  carryOverDefaultSecret(dir, file);
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fs.chmodSync(file, 0o600);
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (!secret)
    throw new Error(`${file} is empty: delete it and start again to generate a new secret (signed-in users will have to sign in again).`);
  return secret;
}

/**
 * Earlier versions kept the default directory's secret beside it, in `.data/auth-secret`: moved in
 * once, so the sessions it signed stay valid. Only for the default directory, whose parent is the
 * project's own `.data`; anywhere else the file beside it may not be this directory's at all.
 */
function carryOverDefaultSecret(dir: string, file: string): void {
  if (dir !== path.resolve(DEFAULT_DATA_DIR) || fs.existsSync(file)) return;
  const old = path.join(path.dirname(dir), FILE);
  if (fs.existsSync(old)) fs.renameSync(old, file);
}
