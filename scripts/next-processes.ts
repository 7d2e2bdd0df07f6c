import { type ChildProcess, spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';

export type NextProcesses = { stop: () => Promise<void> };

const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));

/**
 * Runs the app's server (scripts/server.ts: Next behind lib/server/front-server.ts) in `dev` or
 * `start` mode, on this Node with this process's TypeScript loader (tsx). Next serves on one thread,
 * so one process uses one core at most: with `count` > 1 Node's cluster runs that many server
 * processes sharing one port, the launcher handing each new connection to the next process in
 * turn. Any of them ending ends the app (`onExit`), as a single one does.
 */
export function startNext(options: {
  mode: 'dev' | 'start';
  env: NodeJS.ProcessEnv;
  count: number;
  onExit: (code: number) => void;
}): NextProcesses {
  // The server escapes control characters in every line it logs (lib/log.ts), colour codes included: it prints none.
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    NODE_ENV: options.mode === 'dev' ? 'development' : 'production',
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
  };
  // CPU_PROFILE_DIR (for benchmarks): each server process writes a V8 CPU profile there when it stops.
  const profileDir = options.env.CPU_PROFILE_DIR?.trim();
  const execArgv = [...process.execArgv, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  let stopping = false;
  const children: ChildProcess[] = [];
  const ended = (code: number | null, signal: NodeJS.Signals | null) => {
    if (!stopping) options.onExit(code ?? (signal ? 1 : 0));
  };
  if (options.count <= 1) {
    const child = spawn(process.execPath, [...execArgv, serverScript, options.mode], { stdio: 'inherit', env });
    child.on('error', () => ended(1, null));
    child.on('exit', ended);
    children.push(child);
  } else {
    cluster.setupPrimary({ exec: serverScript, args: [options.mode], execArgv });
    for (let i = 0; i < options.count; i++) {
      const worker = cluster.fork(env);
      worker.on('exit', ended);
      children.push(worker.process);
    }
  }
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(children.map(stopChild));
    },
  };
}

/** SIGTERM lets the server finish its requests; one that has not ended after 10 s is killed. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
