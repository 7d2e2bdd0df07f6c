import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Password authentication for the embedded database's TCP listener (wire-tcp.ts), SCRAM-SHA-256
 * (RFC 5802 / RFC 7677) as Postgres does it. PGlite itself trusts every startup message (it answers
 * AuthenticationOk at once), so the gate answers a connection's startup itself and hands it on only
 * once the client has proved it knows the password; until then nothing of the client's reaches the
 * database. Channel binding is not offered (the server has no TLS), as with a Postgres without SSL.
 * (The Unix socket needs none of this: only the owner of its 0700 directory can reach it.)
 */
const MECHANISM = 'SCRAM-SHA-256';
const ITERATIONS = 4096;
const PROTOCOL_3 = 196608;

type Verifier = { salt: Buffer; storedKey: Buffer; serverKey: Buffer };

type Session =
  | { stage: 'client-first'; startup: Uint8Array; user: string }
  | {
      stage: 'client-final';
      startup: Uint8Array;
      user: string;
      gs2Header: string;
      nonce: string;
      clientFirstBare: string;
      serverFirst: string;
    };

/** The client failed to authenticate: it has been answered with the error, its connection is to be closed. */
export class AuthenticationFailed extends Error {
  constructor(
    /** SQLSTATE: 28P01 wrong password, 08P01 protocol violation. */
    readonly code: '28P01' | '08P01',
    message: string,
  ) {
    super(message);
  }
}

const protocolViolation = (message: string) => new AuthenticationFailed('08P01', message);

export class PasswordGate {
  private readonly verifier: Verifier;
  private readonly sessions = new Map<number, Session>();

  constructor(
    private readonly user: string,
    password: string,
  ) {
    this.verifier = scramVerifier(password);
  }

  /**
   * Answers one message of a connection's authentication (through `reply`). Returns null until the
   * password is proved, then the client's startup message, to hand to the database. Throws
   * AuthenticationFailed, after replying with the error, to close the connection.
   */
  screen(connectionId: number, message: Uint8Array, reply: (data: Uint8Array) => void): Uint8Array | null {
    const session = this.sessions.get(connectionId);
    try {
      if (!session && isStartup(message)) return this.begin(connectionId, message, reply);
      if (session?.stage === 'client-first' && message[0] === P) return this.challenge(connectionId, session, message, reply);
      if (session?.stage === 'client-final' && message[0] === P) return this.verify(connectionId, session, message, reply);
      throw protocolViolation('the client sent a message before authenticating');
    } catch (error) {
      this.sessions.delete(connectionId);
      const failed = error instanceof AuthenticationFailed ? error : protocolViolation('malformed authentication message');
      reply(errorResponse(failed.code, failed.message));
      throw failed;
    }
  }

  forget(connectionId: number): void {
    this.sessions.delete(connectionId);
  }

  private begin(connectionId: number, startup: Uint8Array, reply: (data: Uint8Array) => void): null {
    const user = startupParameters(startup).get('user') ?? '';
    this.sessions.set(connectionId, { stage: 'client-first', startup, user });
    reply(authentication(10, Buffer.from(`${MECHANISM}\0\0`)));
    return null;
  }

  private challenge(
    connectionId: number,
    session: Session & { stage: 'client-first' },
    message: Uint8Array,
    reply: (data: Uint8Array) => void,
  ): null {
    const { mechanism, data } = readInitialResponse(message);
    if (mechanism !== MECHANISM) throw protocolViolation(`unsupported SASL mechanism ${JSON.stringify(mechanism)}`);
    // gs2 header: "n,," (no channel binding) or "y,," (client could bind, server did not offer).
    const match = /^([ny]),[^,]*,(.*)$/s.exec(data);
    if (!match) throw protocolViolation('channel binding is not supported');
    const clientFirstBare = match[2];
    const clientNonce = attributes(clientFirstBare).get('r');
    if (!clientNonce) throw protocolViolation('malformed SCRAM message');
    const nonce = clientNonce + randomBytes(18).toString('base64');
    const serverFirst = `r=${nonce},s=${this.verifier.salt.toString('base64')},i=${ITERATIONS}`;
    const gs2Header = data.slice(0, data.length - clientFirstBare.length);
    this.sessions.set(connectionId, { ...session, stage: 'client-final', gs2Header, nonce, clientFirstBare, serverFirst });
    reply(authentication(11, Buffer.from(serverFirst)));
    return null;
  }

  private verify(
    connectionId: number,
    session: Session & { stage: 'client-final' },
    message: Uint8Array,
    reply: (data: Uint8Array) => void,
  ): Uint8Array {
    const clientFinal = Buffer.from(message.subarray(5)).toString('utf8');
    const proofAt = clientFinal.lastIndexOf(',p=');
    const withoutProof = clientFinal.slice(0, Math.max(proofAt, 0));
    const fields = attributes(withoutProof);
    const bindingOk = fields.get('c') === Buffer.from(session.gs2Header).toString('base64');
    if (proofAt < 0 || !bindingOk || fields.get('r') !== session.nonce) throw protocolViolation('malformed SCRAM message');
    const authMessage = `${session.clientFirstBare},${session.serverFirst},${withoutProof}`;
    const proof = Buffer.from(clientFinal.slice(proofAt + 3), 'base64');
    if (!(this.proves(proof, authMessage) && session.user === this.user)) {
      throw new AuthenticationFailed('28P01', `password authentication failed for user ${JSON.stringify(session.user)}`);
    }
    this.sessions.delete(connectionId);
    reply(authentication(12, Buffer.from(`v=${hmac(this.verifier.serverKey, authMessage).toString('base64')}`)));
    return session.startup;
  }

  /** The client's proof XOR its signature is its ClientKey; a right one hashes to the StoredKey. */
  private proves(proof: Buffer, authMessage: string): boolean {
    const signature = hmac(this.verifier.storedKey, authMessage);
    if (proof.length !== signature.length) return false;
    const clientKey = Buffer.from(proof.map((byte, i) => byte ^ signature[i]));
    return timingSafeEqual(sha256(clientKey), this.verifier.storedKey);
  }
}

const P = 'p'.charCodeAt(0);

/** What the server keeps instead of the password: a random salt and two keys derived from it. */
function scramVerifier(password: string): Verifier {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  return { salt, storedKey: sha256(hmac(salted, 'Client Key')), serverKey: hmac(salted, 'Server Key') };
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

/** A startup packet: int32 length, int32 protocol version 3.0, then name/value pairs. */
function isStartup(message: Uint8Array): boolean {
  return message.length >= 8 && Buffer.from(message).readInt32BE(4) === PROTOCOL_3;
}

function startupParameters(message: Uint8Array): Map<string, string> {
  const parts = Buffer.from(message.subarray(8)).toString('utf8').split('\0');
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i]) parameters.set(parts[i], parts[i + 1]);
  return parameters;
}

/** SASLInitialResponse: 'p', int32 length, mechanism name (C string), int32 length, data. */
function readInitialResponse(message: Uint8Array): { mechanism: string; data: string } {
  const body = Buffer.from(message.subarray(5));
  const end = body.indexOf(0);
  if (end < 0 || body.length < end + 5) throw protocolViolation('malformed SASL message');
  const length = body.readInt32BE(end + 1);
  return { mechanism: body.toString('utf8', 0, end), data: body.toString('utf8', end + 5, end + 5 + Math.max(length, 0)) };
}

/** SCRAM attributes "a=value,b=value": values may contain '=' but never ','. */
function attributes(text: string): Map<string, string> {
  return new Map(text.split(',').map((part) => [part.slice(0, 1), part.slice(2)] as [string, string]));
}

/** An Authentication message: 'R', int32 length, int32 kind (10 SASL, 11 continue, 12 final), data. */
function authentication(kind: number, data: Buffer): Uint8Array {
  const message = Buffer.alloc(9 + data.length);
  message.write('R', 0);
  message.writeInt32BE(8 + data.length, 1);
  message.writeInt32BE(kind, 5);
  data.copy(message, 9);
  return message;
}

export function errorResponse(code: string, text: string): Uint8Array {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`);
  const message = Buffer.alloc(5 + fields.length);
  message.write('E', 0);
  message.writeInt32BE(4 + fields.length, 1);
  fields.copy(message, 5);
  return message;
}
