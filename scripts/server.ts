/**
 * One app server process: Next's request handler behind the app's own HTTP server
 * (lib/server/front-server.ts), as Next documents a custom server. scripts/start.ts runs it
 * (through next-processes.ts, several under Node's cluster) as `tsx scripts/server.ts start|dev`,
 * with PORT, APP_HOST, NODE_ENV and DATABASE_URL in its environment.
 */
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import os from 'node:os';
import next from 'next';
import { markListening } from '@/lib/memory/jobs/worker-signal';
import { getConfig } from '../lib/config';
import { escapeConsoleLines, logError } from '../lib/log';
import { createFrontServer } from '../lib/server/front-server';
import { allowedHosts } from '../lib/server/request-checks';
import { trustOf } from '../lib/trusted-proxies';

const started = Date.now();
const dev = process.argv[2] === 'dev';
const { PORT: port, APP_HOST: hostname } = getConfig();
/** How long a stopping server lets requests in flight finish (the launcher kills it after 10 s). */
const DRAIN_MS = 8_000;

async function main() {
  // Next and the libraries print request data too (a URL, an error's message): one line each, escaped.
  escapeConsoleLines();
  const config = getConfig();
  // Next hooks its dev server's hot-reload WebSocket onto `httpServer`; handing it this emitter
  // instead of the server means only upgrades that passed the checks reach it.
  const upgrades = new EventEmitter();
  const app = next({ dev, hostname, port, dir: process.cwd(), httpServer: upgrades as unknown as Server });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createFrontServer({
    handle: (request, response) => handle(request, response),
    upgrade: (request, socket, head) => upgrades.emit('upgrade', request, socket, head),
    trust: trustOf(config.TRUSTED_PROXIES),
    hosts: allowedHosts({ appUrl: config.APP_URL, listenHost: hostname, port, interfaceAddresses: machineAddresses }),
    maxBodyBytes: config.MAX_BODY_BYTES,
    maxImportBodyBytes: config.MAX_IMPORT_BODY_BYTES,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: config.MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
  });
  server.on('error', (error) => {
    logError('the app server failed', error);
    process.exit(1);
  });
  server.listen(port, hostname, () => {
    markListening();
    console.log(
      `[memlens] ${dev ? 'dev' : 'production'} server ${process.pid} Ready in ${Date.now() - started} ms on http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`,
    );
  });

  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // No new connections; idle kept-alive ones close now, requests in flight may finish.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (dev) server.closeAllConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
    server.closeAllConnections();
    await app.close().catch((error: unknown) => logError('could not close Next', error));
    process.exit(exitCode);
  };
  // `on`, not `once`: a second signal (the launcher passing on the one its group got) must not end the drain.
  process.on('SIGTERM', () => void stop(143));
  process.on('SIGINT', () => void stop(130));
}

/** Every address of this machine's interfaces, for a server listening on all of them. */
function machineAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address] : []));
}

main().catch((error) => {
  logError('the app server could not start', error);
  process.exit(1);
});
