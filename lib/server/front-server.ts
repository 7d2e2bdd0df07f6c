import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { CLIENT_ADDRESS_HEADER } from '../client-address';
import { logError } from '../log';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS } from '../security-headers';
import { clientAddressOf, peerIsTrusted, type Trust } from '../trusted-proxies';
import { capConnectionsPerAddress } from './connection-cap';
import { type BodyLimits, bodyLimitFor, declaredLengthRefusal, hostRefusal, type Refusal, targetRefusal, tooLarge } from './request-checks';

/**
 * The app's HTTP server, in front of Next's request handler (scripts/server.ts). It owns what must
 * hold before any route runs, whatever the route or library behind it does:
 * - the client's address: any client-sent X-Memlens-Client-Address is replaced by the one resolved
 *   from the socket's peer and TRUSTED_PROXIES; X-Forwarded-For/-Host/-Proto/-Port, X-Real-IP and
 *   Forwarded from a peer that is not a trusted proxy are dropped, so Next fills in the truth;
 * - bounds before authentication: time to send the headers and the whole request (408), idle
 *   kept-alive connections, open connections in all and per client address (lib/server/connection-cap.ts),
 *   and the body size (413: by Content-Length before reading, and by counting a chunked body as it arrives);
 * - the Host (a rebound DNS name is refused, 421), the request target (a path, 400) and its
 *   percent-encoding (400).
 * Whatever it answers itself is JSON `{ error: { code, message } }` with the security headers.
 */
export type FrontServerOptions = BodyLimits & {
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  /** WebSocket upgrades that passed the checks (`next dev`'s hot reload); others are refused. */
  upgrade?: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  trust: Trust;
  hosts: ReadonlySet<string>;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** Open connections one peer address may hold (0: no cap); trusted proxies are not capped. */
  maxConnectionsPerAddress: number;
};

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];

export function createFrontServer(options: FrontServerOptions): http.Server {
  const server = http.createServer({
    requestTimeout: options.requestTimeoutMs,
    // Node refuses a headers timeout longer than the request timeout.
    headersTimeout: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
    keepAliveTimeout: options.keepAliveTimeoutMs,
    // How often Node looks for requests past their timeouts (its default, 30 s, would let a 5 s timeout run to 35).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 4))),
  });
  server.maxConnections = options.maxConnections;
  capConnectionsPerAddress(server, { max: options.maxConnectionsPerAddress, trust: options.trust });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    setClientAddress(request, options.trust);
    const limit = bodyLimitFor(request.url ?? '/', options);
    const refusal = checkRequest(request, options) ?? declaredLengthRefusal(request.headers['content-length'], limit);
    if (refusal) return refuse(response, refusal);
    limitBody(request, response, limit);
    options.handle(request, response).catch((error: unknown) => {
      logError('unhandled error in the request handler', error, { method: request.method, path: request.url?.split('?', 1)[0] });
      if (!response.headersSent) refuse(response, { status: 500, code: 'internal_error', message: 'Something went wrong on the server.' });
      else response.destroy();
    });
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    setClientAddress(request, options.trust);
    const refusal = checkRequest(request, options);
    if (refusal || !options.upgrade)
      return answerOnSocket(socket, refusal ?? { status: 400, code: 'no_upgrade', message: 'This server takes no WebSocket connections.' });
    options.upgrade(request, socket, head);
  });

  // Requests Node itself refuses (a malformed request line, headers too large, a request past its
  // timeout) get the same JSON and headers instead of Node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) return void socket.destroy();
    answerOnSocket(socket, clientErrorRefusal(error.code));
  });
  return server;
}

function checkRequest(request: IncomingMessage, options: FrontServerOptions): Refusal | undefined {
  return targetRefusal(request.url) ?? hostRefusal(request.headers.host, options.hosts);
}

function setClientAddress(request: IncomingMessage, trust: Trust) {
  const address = clientAddressOf(request, trust);
  if (!peerIsTrusted(request, trust)) for (const name of FORWARDED_HEADERS) delete request.headers[name];
  if (address) request.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete request.headers[CLIENT_ADDRESS_HEADER];
}

/**
 * Counts the body as Node's parser hands it over (it pushes each chunk into the request stream) and
 * stops at the limit: nothing past it reaches the handler, the client gets a 413 if no answer has
 * started yet, and the connection is closed once it is sent, so a body with no length cannot run
 * on for ever. What still arrives meanwhile is read and dropped: a socket closed with unread input
 * is reset, which could cut off the 413 before the client reads it.
 */
function limitBody(request: IncomingMessage, response: ServerResponse, limit: number) {
  let received = 0;
  const push = request.push.bind(request);
  request.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (received > limit) return true;
    if (chunk !== null) received += chunk.length;
    if (received <= limit) return push(chunk, encoding);
    if (!response.headersSent) refuse(response, tooLarge(limit));
    else response.destroy();
    return true;
  };
}

function refuse(response: ServerResponse, { status, code, message }: Refusal) {
  const body = JSON.stringify({ error: { code, message } });
  // A refused request's body is never read: the connection cannot carry another request after it.
  response.writeHead(status, { ...errorHeaders(), 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

function answerOnSocket(socket: Duplex, { status, code, message }: Refusal) {
  const body = JSON.stringify({ error: { code, message } });
  const headers = { ...errorHeaders(), 'content-length': Buffer.byteLength(body), connection: 'close' };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`, () => socket.destroy());
}

function errorHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-security-policy': API_CONTENT_SECURITY_POLICY };
  for (const { key, value } of FIXED_SECURITY_HEADERS) headers[key.toLowerCase()] = value;
  return headers;
}

function clientErrorRefusal(code: string | undefined): Refusal {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'request_timeout', message: 'The request did not arrive whole in time.' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'headers_too_large', message: 'The request headers are too large.' };
  return { status: 400, code: 'malformed_request', message: 'The request is not well-formed HTTP.' };
}
