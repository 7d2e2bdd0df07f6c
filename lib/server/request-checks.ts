/**
 * What the app's own HTTP server checks of a request before Next sees it, from the request line and
 * headers alone (lib/server/front-server.ts applies them). Each refusal is a 4xx the server answers
 * itself, as JSON with the security headers.
 */

export type Refusal = { status: number; code: string; message: string };

export type HostOptions = {
  /** APP_URL, the address users open, when set. */
  appUrl?: string;
  /** The interface the server listens on (APP_HOST). */
  listenHost: string;
  port: number;
  /** This machine's own addresses, the Host a browser sends for a server listening on all interfaces. */
  interfaceAddresses: () => string[];
};

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/**
 * The Host values this server answers to: APP_URL's host, and the addresses it is reached at
 * directly (loopback, the interface it listens on, or each of the machine's addresses when it
 * listens on all of them), on its port. A name that only resolves here by a rebound DNS record
 * (`evil.example` pointing at 127.0.0.1) is none of these, so its pages never reach the app.
 */
export function allowedHosts({ appUrl, listenHost, port, interfaceAddresses }: HostOptions): ReadonlySet<string> {
  const hosts = new Set<string>();
  const add = (hostname: string, hostPort: number, defaultPort: number) => {
    const name = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
    hosts.add(`${name}:${hostPort}`.toLowerCase());
    if (hostPort === defaultPort) hosts.add(name.toLowerCase());
  };
  const listening = WILDCARDS.has(listenHost) ? interfaceAddresses() : [listenHost];
  for (const hostname of [...LOOPBACK_NAMES, ...listening]) add(hostname, port, 80);
  if (appUrl) {
    const url = new URL(appUrl);
    const defaultPort = url.protocol === 'https:' ? 443 : 80;
    add(url.hostname, url.port ? Number(url.port) : defaultPort, defaultPort);
  }
  return hosts;
}

// A name or IPv4 address, or a bracketed IPv6 address, with an optional port: nothing else is a Host.
const HOST_SHAPE = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export function hostRefusal(host: string | undefined, allowed: ReadonlySet<string>): Refusal | undefined {
  if (host && HOST_SHAPE.test(host) && allowed.has(host.toLowerCase())) return undefined;
  return {
    status: 421,
    code: 'unknown_host',
    message:
      'This server does not serve that host name. Open the app at its own address; behind a proxy or under another name, set APP_URL to that address.',
  };
}

/** The request target must be a path (`/x?y`), with every `%` starting a valid UTF-8 percent-encoding. */
export function targetRefusal(target: string | undefined): Refusal | undefined {
  if (!target?.startsWith('/')) {
    return {
      status: 400,
      code: 'invalid_request_target',
      message: 'The request target must be a path such as /api/me, not an absolute URL or *.',
    };
  }
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  try {
    decodeURIComponent(path);
  } catch {
    return {
      status: 400,
      code: 'invalid_path',
      message: 'The path has a malformed percent-encoding: each % must start two hex digits, and the bytes they encode must be UTF-8.',
    };
  }
  return undefined;
}

export type BodyLimits = { maxBodyBytes: number; maxImportBodyBytes: number };

/** The largest body any route at this path reads: imports have their own, larger limit. */
export function bodyLimitFor(target: string, { maxBodyBytes, maxImportBodyBytes }: BodyLimits): number {
  const path = target.split('?', 1)[0];
  return path === '/api/import' ? maxImportBodyBytes : maxBodyBytes;
}

export function tooLarge(limit: number): Refusal {
  return { status: 413, code: 'too_large', message: `The request body is larger than the limit of ${limit} bytes.` };
}

/** A Content-Length above the limit is refused before a byte of the body is read. */
export function declaredLengthRefusal(contentLength: string | undefined, limit: number): Refusal | undefined {
  return contentLength !== undefined && Number(contentLength) > limit ? tooLarge(limit) : undefined;
}
