import net from 'node:net';

/** One HTTP answer as it came off the wire. */
type RawResponse = { status: number; headers: Record<string, string>; body: string; json: any };

export type RawExchange = {
  /** The first response, when one arrived before the connection ended or the wait ran out. */
  response?: RawResponse;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  elapsedMs: number;
};

/**
 * Talks HTTP/1.1 over a plain socket, for what fetch cannot send: malformed request lines, a
 * Content-Length never honoured, a body trickled or sent in chunks forever. `send` writes the
 * request (it may keep writing until `answered` resolves); the exchange ends when the server closes
 * the connection or after `waitMs`, whichever is first, so no test can hang on it.
 */
export async function rawExchange(
  port: number,
  send: (socket: net.Socket, answered: Promise<void>) => Promise<void> | void,
  { waitMs = 10_000, host = '127.0.0.1' }: { waitMs?: number; host?: string } = {},
): Promise<RawExchange> {
  const started = Date.now();
  const socket = net.connect({ port, host });
  const chunks: Buffer[] = [];
  let markAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (markAnswered = resolve));
  socket.on('data', (chunk) => {
    chunks.push(chunk);
    markAnswered();
  });
  const ended = new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    socket.on('error', () => undefined); // a reset after the answer still ends the exchange
  });
  const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs).unref());
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const sending = Promise.resolve(send(socket, answered)).catch(() => undefined);
  const closed = await Promise.race([ended, timer]);
  socket.destroy();
  markAnswered();
  await sending;
  return { response: parseResponse(Buffer.concat(chunks)), closed, elapsedMs: Date.now() - started };
}

/** Writes the request line and headers, then `body` if given; `Host` defaults to the server's own address. */
export function writeHead(socket: net.Socket, requestLine: string, headers: Record<string, string> = {}) {
  const all = { Host: `${socket.remoteAddress}:${socket.remotePort}`, ...headers };
  socket.write(
    `${requestLine}\r\n${Object.entries(all)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `piece` every `everyMs`, at most `times` times, and stops as soon as the server answers. */
export async function writeUntilAnswered(socket: net.Socket, answered: Promise<void>, piece: string, times: number, everyMs: number) {
  for (let i = 0; i < times; i++) {
    if (await Promise.race([answered.then(() => true), sleep(everyMs).then(() => false)])) return;
    socket.write(piece);
  }
}

function parseResponse(raw: Buffer): RawResponse | undefined {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(end + 4);
  const body = headers['content-length'] ? rest.slice(0, Number(headers['content-length'])) : rest;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status, headers, body, json };
}
