import { type NextRequest, NextResponse } from 'next/server';
import { getConfig } from '@/lib/config';
import { csrfVerdict, declaresBody } from '@/lib/csrf';
import { errorResponse, HttpError } from '@/lib/http';
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS, newNonce, pageContentSecurityPolicy } from '@/lib/security-headers';
import { STAFF_REQUEST_HEADER } from '@/lib/shared/staff-header';

/**
 * Every request but static files passes here:
 * - an API mutation, or any staff request (reads are audited), that did not come from the app
 *   itself is refused (lib/csrf.ts), writing nothing;
 * - every response gets the security headers; a page gets a CSP with a fresh nonce, which Next reads
 *   from the request's own Content-Security-Policy header and puts on its scripts.
 */
export function proxy(request: NextRequest) {
  const isApi = request.nextUrl.pathname === '/api' || request.nextUrl.pathname.startsWith('/api/');
  const csp = isApi
    ? API_CONTENT_SECURITY_POLICY
    : pageContentSecurityPolicy({
        nonce: newNonce(),
        dev: process.env.NODE_ENV === 'development',
        https: request.nextUrl.protocol === 'https:',
      });

  const refusal = forgeryRefusal(request);
  if (refusal) return withSecurityHeaders(refusal, csp);

  const headers = new Headers(request.headers);
  if (!isApi) headers.set('content-security-policy', csp);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), csp);
}

function forgeryRefusal(request: NextRequest): Response | undefined {
  const verdict = csrfVerdict(
    {
      method: request.method,
      pathname: request.nextUrl.pathname,
      host: request.headers.get('host'),
      origin: request.headers.get('origin'),
      secFetchSite: request.headers.get('sec-fetch-site'),
      contentType: request.headers.get('content-type'),
      hasBody: declaresBody(request.headers),
      staffHeader: request.headers.get(STAFF_REQUEST_HEADER),
    },
    getConfig().APP_URL,
  );
  return verdict.ok ? undefined : errorResponse(new HttpError(verdict.status, verdict.code, verdict.message));
}

function withSecurityHeaders<T extends Response>(response: T, csp: string): T {
  response.headers.set('Content-Security-Policy', csp);
  for (const { key, value } of FIXED_SECURITY_HEADERS) response.headers.set(key, value);
  return response;
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
