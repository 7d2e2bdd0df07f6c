import { STAFF_REQUEST_HEADER } from './shared/staff-header';
/**
 * Cross-site request forgery defence for the API, decided from headers alone (proxy.ts applies it).
 *
 * The session cookies are SameSite=Lax, which stops other *sites* but not another port or subdomain
 * of the same site: a page there can post a form or a credentialed fetch and the browser attaches
 * the victim's cookies. So every state-changing API request must show it came from the app itself:
 *
 * 1. `Sec-Fetch-Site`, when present, is set by the browser and no page can forge it: only
 *    `same-origin` (the app's own pages) or `none` (typed in or bookmarked) pass. Another port of the
 *    same host is `same-site` and is refused.
 * 2. Without it (older browsers; browsers omit it towards plain-http hosts other than localhost),
 *    `Origin` must name the app: the request's own host, or APP_URL.
 * 3. Neither header: not a browser, whose cross-origin requests always carry Origin. A script or
 *    curl holding a cookie can send whatever it likes anyway, so there is nothing to forge; allowed.
 *
 * This is the scheme of Go's net/http CrossOriginProtection. On top of it a body must be JSON:
 * HTML forms cannot send `application/json`, and a cross-origin fetch that does needs a CORS
 * preflight the app never grants, so even a browser that sent neither header could not forge one.
 *
 * Staff routes (`/api/staff/*`) are guarded for every method, reads included: a staff read is
 * audited in the staff member's name, so an `<img>` or `<script>` on another site must not make one.
 * `Sec-Fetch-Site`, when present, must be `same-origin` or `none`; without it (a cross-site `<img>`
 * in such a browser sends no Origin either) the request must carry STAFF_REQUEST_HEADER, which the
 * console's fetches set and which no `<img>`, `<script>`, link or form can send (a cross-origin fetch
 * with it needs a preflight, refused here like any other staff request from elsewhere).
 */

/** The header the staff console sends with every call; scripts calling staff routes send it too. */

export type CsrfRequest = {
  method: string;
  pathname: string;
  /** The Host header as received (host[:port]). */
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  contentType: string | null;
  /** Whether the request carries a body (Content-Length above 0, or Transfer-Encoding). */
  hasBody: boolean;
  /** The value of STAFF_REQUEST_HEADER, if sent. */
  staffHeader?: string | null;
};

export type CsrfVerdict = { ok: true } | { ok: false; status: 403 | 415; code: 'cross_origin' | 'unsupported_media_type'; message: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TRUSTED_FETCH_SITES = new Set(['same-origin', 'none']);
const ALLOWED = { ok: true } as const;

/** Which requests the check covers: API mutations, except better-auth's, which checks Origin itself. */
function isGuardedRequest(method: string, pathname: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (pathname !== '/api' && !pathname.startsWith('/api/')) return false;
  return !(pathname === '/api/auth' || pathname.startsWith('/api/auth/'));
}

/** Whether the path is a staff route: guarded for reads too. */
function isStaffPath(pathname: string): boolean {
  return pathname === '/api/staff' || pathname.startsWith('/api/staff/');
}

/** The decision for one request; `appUrl` is APP_URL, the app's public address, when set. */
export function csrfVerdict(request: CsrfRequest, appUrl?: string): CsrfVerdict {
  if (isStaffPath(request.pathname) && !staffRequestFromTheApp(request)) {
    return {
      ok: false,
      status: 403,
      code: 'cross_origin',
      message: `Cross-origin request refused: staff routes answer only the staff console (a script sends the header ${STAFF_REQUEST_HEADER}: 1).`,
    };
  }
  if (!isGuardedRequest(request.method, request.pathname)) return ALLOWED;
  if (!fromTheAppItself(request, appUrl)) {
    return {
      ok: false,
      status: 403,
      code: 'cross_origin',
      message:
        'Cross-origin request refused: changes can only be made from the app itself. Behind a proxy, set APP_URL to the public address.',
    };
  }
  if ((request.hasBody || request.contentType !== null) && !isJson(request.contentType)) {
    return {
      ok: false,
      status: 415,
      code: 'unsupported_media_type',
      message: 'Send the request body as JSON, with Content-Type: application/json.',
    };
  }
  return ALLOWED;
}

function staffRequestFromTheApp(request: CsrfRequest): boolean {
  if (request.secFetchSite !== null) return TRUSTED_FETCH_SITES.has(request.secFetchSite.toLowerCase());
  return request.staffHeader === '1';
}

function fromTheAppItself(request: CsrfRequest, appUrl: string | undefined): boolean {
  if (request.secFetchSite !== null) return TRUSTED_FETCH_SITES.has(request.secFetchSite.toLowerCase());
  if (request.origin === null) return true;
  return originMatches(request.origin, request.host, appUrl);
}

function originMatches(origin: string, host: string | null, appUrl: string | undefined): boolean {
  const parsed = parseUrl(origin);
  // `Origin: null` (sandboxed frames, data: pages) and anything unparsable name no one.
  if (!parsed) return false;
  if (host !== null && parsed.host === host.toLowerCase()) return true;
  return appUrl !== undefined && parseUrl(appUrl)?.origin === parsed.origin;
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** `application/json`, with or without parameters such as `charset`. */
function isJson(contentType: string | null): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** The request's body, as far as headers tell: what `hasBody` means. */
export function declaresBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return headers.has('transfer-encoding') || (length !== null && length.trim() !== '0');
}
