import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/**
 * A production server of a spec's own (this run's build, started as `npm start` starts it), in its
 * own process group so a signal reaches Next and the embedded database alike. Its output is kept,
 * to be read as an operator reads it (E2E_SERVER_LOG=1 also prints it).
 */
export class OwnServer {
  output = '';
  private readonly child: ChildProcess;
  private readonly listeners = new Set<() => void>();

  constructor(env: Record<string, string>) {
    this.child = spawn(
      process.execPath,
      [path.resolve('node_modules/.bin/tsx'), '--conditions=react-server', 'scripts/start.ts', 'start'],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, OPENAI_API_KEY: '', NEXT_TELEMETRY_DISABLED: '1', APP_HOST: '127.0.0.1', ...env },
      },
    );
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (process.env.E2E_SERVER_LOG) process.stdout.write(chunk);
      for (const listener of [...this.listeners]) listener();
    };
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first line the server printed that matches `pattern`; fails after `ms`, showing what it printed. */
  printed(pattern: RegExp, ms: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const line = this.output.split('\n').find((candidate) => pattern.test(candidate));
        if (line === undefined) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(line);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no line matching ${pattern} within ${ms} ms; the server printed:\n${this.output}`));
      }, ms);
      this.listeners.add(check);
      check();
    });
  }

  /** SIGTERM (a clean stop) or SIGKILL (a crash) to the whole group; resolves once the launcher has exited. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    process.kill(-this.pid, signal);
    await exited;
  }
}
