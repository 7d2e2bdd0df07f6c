/**
 * The header that carries the client's address to the app. The app's own HTTP server
 * (lib/server/front-server.ts) removes any copy a client sent and sets it from the socket's peer
 * and TRUSTED_PROXIES (lib/trusted-proxies.ts); better-auth reads the same header (lib/auth.ts).
 */
export const CLIENT_ADDRESS_HEADER = 'x-memlens-client-address';

/** The client's address as the app's server resolved it; null when the request did not pass through it. */
export function clientAddress(headers: Headers): string | null {
  return headers.get(CLIENT_ADDRESS_HEADER) || null;
}
