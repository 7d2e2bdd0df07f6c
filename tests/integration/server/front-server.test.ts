import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { createFrontServer, type FrontServerOptions } from '@/lib/server/front-server';
import { trustOf } from '@/lib/trusted-proxies';
import { rawExchange, writeHead, writeUntilAnswered } from '@/tests/support/raw-http';

// The app's own HTTP server (lib/server/front-server.ts) on a real socket, with a handler in Next's
// place that reads the whole body and tells what reached it. e2e/server-hardening.spec.ts runs the
// same server in front of the production build.

type Seen = { clientAddress?: string; forwardedFor?: string; forwardedHost?: string; bodyBytes: number };

async function start(overrides: Partial<FrontServerOptions> = {}) {
  const seen: Seen[] = [];
  const hosts = new Set<string>();
  const server: Server = createFrontServer({
    handle: async (request: IncomingMessage, response: ServerResponse) => {
      let bodyBytes = 0;
      // A body cut off by the server ends in an error here, as in Next: that request is already answered.
      try {
        for await (const chunk of request) bodyBytes += (chunk as Buffer).length;
      } catch {
        return;
      }
      const entry: Seen = {
        clientAddress: request.headers[CLIENT_ADDRESS_HEADER] as string | undefined,
        forwardedFor: request.headers['x-forwarded-for'] as string | undefined,
        forwardedHost: request.headers['x-forwarded-host'] as string | undefined,
        bodyBytes,
      };
      seen.push(entry);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(entry));
    },
    trust: trustOf({ hops: 0 }),
    hosts,
    maxBodyBytes: 1024,
    maxImportBodyBytes: 4096,
    requestTimeoutMs: 1_500,
    headersTimeoutMs: 1_000,
    keepAliveTimeoutMs: 1_000,
    maxConnections: 100,
    maxConnectionsPerAddress: 0,
    ...overrides,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  hosts.add(`127.0.0.1:${port}`);
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { server, port, seen, get };
}

const SECURITY_HEADERS = {
  'content-type': 'application/json',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': expect.stringContaining("default-src 'none'"),
};

describe('the app server in front of Next', () => {
  let app: Awaited<ReturnType<typeof start>>;
  let behindProxy: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    app = await start();
    behindProxy = await start({ trust: trustOf({ hops: 1 }) });
  });
  afterAll(() => {
    app.server.close();
    behindProxy.server.close();
  });

  it('tells the handler the socket peer as the client, and drops the forwarding headers it sent', async () => {
    const response = await app.get('/x', {
      'x-forwarded-for': '198.51.100.7',
      [CLIENT_ADDRESS_HEADER]: '203.0.113.9',
      'x-forwarded-host': 'evil.example',
    });
    expect(await response.json()).toEqual({ clientAddress: '127.0.0.1', bodyBytes: 0 });
  });

  it('behind one trusted proxy, the client is the entry the proxy added', async () => {
    const response = await behindProxy.get('/x', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7', 'x-forwarded-host': 'app.example' });
    expect(await response.json()).toEqual({
      clientAddress: '198.51.100.7',
      forwardedFor: '6.6.6.6, 198.51.100.7',
      forwardedHost: 'app.example',
      bodyBytes: 0,
    });
  });

  it('passes a body within the limit whole; imports have their larger one', async () => {
    const post = async (path: string, bytes: number) => {
      const response = await fetch(`http://127.0.0.1:${app.port}${path}`, { method: 'POST', body: 'x'.repeat(bytes) });
      return [response.status, (await response.json()).bodyBytes];
    };
    expect(await post('/api/facts', 1024)).toEqual([200, 1024]);
    expect(await post('/api/import', 4096)).toEqual([200, 4096]);
  });

  it('refuses a declared Content-Length over the limit at once, without reading the body', async () => {
    const before = app.seen.length;
    const exchange = await rawExchange(
      app.port,
      (socket) => writeHead(socket, 'POST /api/import HTTP/1.1', { 'Content-Length': '99999999999', 'Content-Type': 'application/json' }),
      { waitMs: 3_000 },
    );
    expect(exchange.response).toMatchObject({ status: 413, headers: SECURITY_HEADERS, json: { error: { code: 'too_large' } } });
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(1_000);
    expect(app.seen.length).toBe(before);
  });

  it('cuts a chunked body at the limit with a 413; the handler never gets more than the limit', async () => {
    const exchange = await rawExchange(
      app.port,
      async (socket, answered) => {
        writeHead(socket, 'POST /api/auth/sign-in/email HTTP/1.1', { 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/json' });
        const chunk = `100\r\n${'x'.repeat(256)}\r\n`;
        // Keeps sending until the server answers (at most 64 KiB, 64 times the limit).
        await writeUntilAnswered(socket, answered, chunk, 256, 5);
      },
      { waitMs: 5_000 },
    );
    expect(exchange.response).toMatchObject({
      status: 413,
      headers: SECURITY_HEADERS,
      json: { error: { code: 'too_large', message: expect.stringContaining('1024 bytes') } },
    });
    expect(exchange.closed).toBe(true);
  });

  it('answers a body trickled past the request timeout with a 408 and closes the connection', async () => {
    const exchange = await rawExchange(
      app.port,
      async (socket, answered) => {
        writeHead(socket, 'POST /api/facts HTTP/1.1', { 'Content-Length': '100', 'Content-Type': 'application/json' });
        await writeUntilAnswered(socket, answered, 'x', 100, 100);
      },
      { waitMs: 6_000 },
    );
    expect(exchange.response).toMatchObject({ status: 408, headers: SECURITY_HEADERS, json: { error: { code: 'request_timeout' } } });
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(4_000);
  });

  it('answers headers trickled past the headers timeout with a 408 and closes the connection, however steady the trickle', async () => {
    const exchange = await rawExchange(
      app.port,
      async (socket, answered) => {
        socket.write(`GET /x HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nX-Slow: `);
        await writeUntilAnswered(socket, answered, 'a', 400, 10);
      },
      { waitMs: 6_000 },
    );
    expect(exchange.response).toMatchObject({ status: 408, json: { error: { code: 'request_timeout' } } });
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(3_000);
  });

  it('closes a connection that never sends a byte once the headers timeout passes', async () => {
    const exchange = await rawExchange(app.port, () => undefined, { waitMs: 6_000 });
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(4_000);
  });

  it.each([
    ['an unknown Host (a rebound DNS name)', 'GET / HTTP/1.1', { Host: 'evil.example:3000' }, 421, 'unknown_host'],
    ['an absolute-form request line', 'GET http://other.example/ HTTP/1.1', {}, 400, 'invalid_request_target'],
    ['a malformed percent-encoding', 'GET /api/facts/%zz HTTP/1.1', {}, 400, 'invalid_path'],
    ['a truncated UTF-8 percent-encoding', 'GET /%E0%A4%A HTTP/1.1', {}, 400, 'invalid_path'],
    ['a request line that is not HTTP', 'GET /a b c', {}, 400, 'malformed_request'],
  ])('refuses %s with a JSON error and the security headers', async (_, line, headers, status, code) => {
    const before = app.seen.length;
    const exchange = await rawExchange(app.port, (socket) => writeHead(socket, line, headers), { waitMs: 3_000 });
    expect(exchange.response).toMatchObject({ status, headers: SECURITY_HEADERS, json: { error: { code, message: expect.any(String) } } });
    expect(app.seen.length).toBe(before);
  });
});

/**
 * `count` sockets from 127.0.0.1, each sending a request line and then trickling a header a byte at
 * a time (at most 400 bytes), never finishing it: the slow-headers attack. `closed(n)` resolves once
 * the server has closed n of them.
 */
async function slowFlood(port: number, count: number) {
  const sockets: net.Socket[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let closedCount = 0;
  let bytesAnswered = 0;
  const connected = Array.from({ length: count }, async () => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => (bytesAnswered += chunk.length));
    socket.once('close', () => {
      closedCount++;
      for (const waiter of waiters.filter((w) => closedCount >= w.n)) waiter.resolve();
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve).once('close', resolve));
    if (!socket.destroyed) socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
  });
  await Promise.all(connected);
  let ticks = 0;
  const trickle = setInterval(() => {
    if (++ticks > 400) return clearInterval(trickle);
    for (const socket of sockets) if (!socket.destroyed) socket.write('a');
  }, 25);
  return {
    closed: (n: number) => new Promise<void>((resolve) => (closedCount >= n ? resolve() : waiters.push({ n, resolve }))),
    open: () => sockets.filter((socket) => !socket.destroyed).length,
    bytesAnswered: () => bytesAnswered,
    stop: () => {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** A plain GET from another local address (127.0.0.2): its status, or the error that ended it. */
function getFrom(localAddress: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/x', localAddress, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('a flood of slow connections from one address', () => {
  const FLOOD = 300;
  const OTHERS = 32;
  // The timeouts outlast the test: only the caps decide who is served.
  const slow = { maxConnections: 200, headersTimeoutMs: 20_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 20_000 };

  it('takes at most MAX_CONNECTIONS_PER_ADDRESS slots: the rest are closed unanswered, and other addresses are served', async () => {
    const app = await start({ ...slow, maxConnectionsPerAddress: 20 });
    const flood = await slowFlood(app.port, FLOOD);
    try {
      const started = performance.now();
      await flood.closed(FLOOD - 20);
      const closedWithin = performance.now() - started;
      const answers = await Promise.all(Array.from({ length: OTHERS }, () => getFrom('127.0.0.2', app.port)));

      expect(answers).toEqual(Array(OTHERS).fill(200));
      expect(flood.open()).toBe(20);
      // Closed on arrival, before any HTTP: no answer was written to them, and no request reached the handler.
      expect(flood.bytesAnswered()).toBe(0);
      expect(app.seen.length).toBe(OTHERS);
      expect(closedWithin).toBeLessThan(2_000);
    } finally {
      flood.stop();
      app.server.close();
    }
  });

  it("a trusted proxy's address is not capped (its clients all arrive through it); another address is", async () => {
    const app = await start({ ...slow, maxConnectionsPerAddress: 2, trust: trustOf({ ranges: ['127.0.0.1'] }) });
    const idle = (localAddress: string) =>
      new Promise<net.Socket>((resolve) => {
        const socket = net.connect({ port: app.port, host: '127.0.0.1', localAddress }, () => resolve(socket));
        socket.on('error', () => undefined);
      });
    const held = [
      ...(await Promise.all([1, 2, 3].map(() => idle('127.0.0.1')))),
      ...(await Promise.all([1, 2].map(() => idle('127.0.0.2')))),
    ];
    try {
      // Accepted in the order they connected: the requests come after the idle connections.
      expect(await getFrom('127.0.0.1', app.port)).toBe(200);
      expect(await getFrom('127.0.0.2', app.port)).not.toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      app.server.close();
    }
  });

  it('without the cap, the same flood fills MAX_CONNECTIONS and other addresses are shut out', async () => {
    const app = await start({ ...slow, maxConnectionsPerAddress: 0 });
    const flood = await slowFlood(app.port, FLOOD);
    try {
      await flood.closed(FLOOD - slow.maxConnections);
      const answers = await Promise.all(Array.from({ length: OTHERS }, () => getFrom('127.0.0.2', app.port)));
      expect(answers.filter((answer) => answer === 200)).toEqual([]);
      expect(flood.open()).toBe(slow.maxConnections);
    } finally {
      flood.stop();
      app.server.close();
    }
  });
});
