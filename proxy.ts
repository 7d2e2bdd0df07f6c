import { NextResponse, type NextRequest } from 'next/server';
import { newSessionToken, SESSION_COOKIE } from '@/lib/session-cookie';

/**
 * A first visit gets a guest session cookie. The token is also added to this request's own
 * headers so the page or handler that runs next already sees it.
 */
export function proxy(request: NextRequest) {
  if (request.cookies.get(SESSION_COOKIE)?.value) return NextResponse.next();
  const token = newSessionToken();
  const headers = new Headers(request.headers);
  const existing = headers.get('cookie');
  headers.set('cookie', `${existing ? `${existing}; ` : ''}${SESSION_COOKIE}=${token}`);
  const response = NextResponse.next({ request: { headers } });
  response.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: request.nextUrl.protocol === 'https:',
    maxAge: 60 * 60 * 24 * 365,
  });
  return response;
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
