import postgres from 'postgres';

/**
 * Database URLs may name a Unix socket the way libpq (psql) reads them: the socket's directory,
 * percent-encoded, in place of the host (`postgres://user@%2Fsome%2Fdir:5432/db` is the socket
 * `/some/dir/.s.PGSQL.5432`). postgres.js reaches a socket only through its `path` option and
 * would take that host for a DNS name, so every client of a URL opens it here.
 */
export function openPostgres(url: string, options: postgres.Options<Record<string, never>> = {}): postgres.Sql {
  const directory = unixSocketDirectory(url);
  if (!directory) return postgres(url, options);
  return postgres(url, { ...options, path: `${directory}/.s.PGSQL.${new URL(url).port || DEFAULT_PORT}` });
}

/** The socket directory a URL names, or undefined for a TCP host. */
export function unixSocketDirectory(url: string): string | undefined {
  const host = decodeURIComponent(new URL(url).hostname);
  return host.startsWith('/') ? host : undefined;
}

export function unixSocketUrl(options: { directory: string; port: number; user: string; database: string }): string {
  return `postgres://${options.user}@${encodeURIComponent(options.directory)}:${options.port}/${options.database}`;
}

const DEFAULT_PORT = 5432;
