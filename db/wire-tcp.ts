import net from 'node:net';
import { AuthenticationFailed, errorResponse, PasswordGate } from './wire-auth';

/**
 * The embedded database's optional TCP listener, in front of its Unix socket.
 *
 * pglite-socket buffers whatever a client sends, as long as the length it announces, and counts a
 * connection against its slots from the first byte: on TCP anyone who can reach the port could
 * fill the slots with silent connections or make it buffer gigabytes. So a TCP client is answered
 * here until it has proved the password (SCRAM, wire-auth.ts), within bounds: its messages must
 * be small, it must finish within `authTimeoutMs`, and connections still authenticating are capped
 * on their own (the oldest is dropped when more arrive), apart from the database's slots. Only an
 * authenticated client gets a connection to the socket, its startup message replayed there; from
 * then on bytes are piped both ways, and a connection silent for `idleTimeoutMs` is closed.
 */
export type TcpOptions = {
  host: string;
  /** 0 lets the OS pick a free port. */
  port: number;
  authTimeoutMs?: number;
  idleTimeoutMs?: number;
};

export type TcpListener = { host: string; port: number; stop: () => Promise<void> };

export const AUTH_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 10 * 60_000;
/** Startup and password messages are a few hundred bytes; anything near this is not a client. */
export const MAX_PREAUTH_MESSAGE_BYTES = 8 * 1024;
export const MAX_AUTHENTICATING = 64;

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

export async function listenTcp(options: TcpOptions & { socketPath: string; user: string; password: string }): Promise<TcpListener> {
  const gate = new PasswordGate(options.user, options.password);
  const authTimeoutMs = options.authTimeoutMs ?? AUTH_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const authenticating = new Set<net.Socket>();
  const open = new Set<net.Socket>();
  let nextId = 1;

  const server = net.createServer((client) => {
    const id = nextId++;
    open.add(client);
    const deadline = setTimeout(() => refuse(client, '08P01', 'authentication timed out'), authTimeoutMs);
    client.on('error', () => {});
    client.on('close', () => {
      clearTimeout(deadline);
      open.delete(client);
      authenticating.delete(client);
      gate.forget(id);
    });
    if (authenticating.size >= MAX_AUTHENTICATING) {
      const oldest = authenticating.values().next().value!;
      authenticating.delete(oldest);
      refuse(oldest, '53300', 'too many connections are authenticating');
    }
    authenticating.add(client);

    let pending = Buffer.alloc(0);
    let startupSeen = false;
    const onData = (chunk: Buffer) => {
      if (!client.writable) return; // refused: what it still sends is dropped, not kept
      pending = Buffer.concat([pending, chunk]);
      try {
        for (;;) {
          const length = announcedLength(pending, startupSeen);
          if (length === undefined || pending.length < length) return;
          const message = pending.subarray(0, length);
          pending = pending.subarray(length);
          if (!startupSeen && isEncryptionRequest(message)) {
            client.write('N'); // no TLS here: the client may go on in plain text or leave
            continue;
          }
          startupSeen = true;
          const startup = gate.screen(id, message, (data) => client.write(data));
          if (!startup) continue;
          clearTimeout(deadline);
          authenticating.delete(client);
          client.off('data', onData);
          client.pause();
          pipeToDatabase(client, Buffer.concat([startup, pending]), options.socketPath, idleTimeoutMs);
          return;
        }
      } catch (error) {
        if (error instanceof AuthenticationFailed) client.destroySoon();
        else refuse(client, '08P01', (error as Error).message);
        pending = Buffer.alloc(0);
      }
    };
    client.on('data', onData);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    host: options.host,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The length of the message at the head of `pending`, once its header has arrived. Throws, before
 * anything of it is kept, when it announces more than a message before authentication may hold.
 */
function announcedLength(pending: Buffer, startupSeen: boolean): number | undefined {
  // Startup and encryption requests: int32 length first. Later messages: a type byte, then it.
  const at = startupSeen ? 1 : 0;
  if (pending.length < at + 4) return undefined;
  const length = pending.readInt32BE(at) + at;
  if (length < at + 4 || length > MAX_PREAUTH_MESSAGE_BYTES) {
    throw new Error(`a message of ${length} bytes before authentication (at most ${MAX_PREAUTH_MESSAGE_BYTES})`);
  }
  return length;
}

function isEncryptionRequest(message: Buffer): boolean {
  return message.length === 8 && [SSL_REQUEST, GSSENC_REQUEST].includes(message.readInt32BE(4));
}

/** Answers with a fatal error and closes the connection once it is written. */
function refuse(client: net.Socket, code: string, message: string): void {
  if (client.writable) client.write(errorResponse(code, message));
  client.destroySoon();
}

/** Hands an authenticated client to the database: its startup first, then whatever it sent after. */
function pipeToDatabase(client: net.Socket, firstBytes: Buffer, socketPath: string, idleTimeoutMs: number): void {
  const database = net.connect(socketPath);
  let answered = false;
  database.once('data', () => (answered = true));
  database.on('error', () => {});
  database.on('connect', () => {
    database.write(firstBytes);
    client.pipe(database);
    database.pipe(client);
  });
  database.on('close', () => {
    // The database closes a connection it has no slot for before answering anything.
    if (!answered) refuse(client, '53300', 'the embedded database has no free connection');
    else client.destroy();
  });
  client.on('close', () => database.destroy());
  client.setTimeout(idleTimeoutMs, () => client.destroy());
}
