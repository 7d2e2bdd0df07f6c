/**
 * Response headers that keep the app out of other sites' frames and limit what injected markup
 * could do. proxy.ts sets them per request (pages get a fresh CSP nonce each time); next.config.ts
 * adds the fixed ones to the files the proxy skips (/_next/static and the like).
 */

/** The same on every response. X-Frame-Options repeats frame-ancestors for browsers without CSP 2. */
export const FIXED_SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
];

/** A fresh, unguessable value for one response's scripts. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
}

export type PagePolicyOptions = { nonce: string; dev: boolean; https: boolean };

/**
 * The policy of an HTML page. Scripts run only with this response's nonce, which Next puts on its
 * own script tags; 'strict-dynamic' lets those load the page's chunks.
 * - `next dev` needs 'unsafe-eval' (React rebuilds server error stacks with eval) and 'unsafe-inline'
 *   styles (its overlay and hot reload inject <style> tags without the nonce).
 * - Style attributes stay allowed ('unsafe-inline' in style-src-attr only): React renders
 *   `style={{ … }}` props into the HTML (widths of the budget bars, recharts' chart boxes), and a
 *   nonce cannot cover an attribute. <style> elements still need the nonce or the app's own origin.
 */
export function pageContentSecurityPolicy({ nonce, dev, https }: PagePolicyOptions): string {
  return joinDirectives([
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Only over https: on a plain-http deployment it would send the page's own requests to https.
    ...(https ? ['upgrade-insecure-requests'] : []),
  ]);
}

/** API responses are data, never a document: nothing may load from them, nor frame them. */
export const API_CONTENT_SECURITY_POLICY = joinDirectives(["default-src 'none'", "frame-ancestors 'none'"]);

function joinDirectives(directives: string[]): string {
  return directives.join('; ');
}
