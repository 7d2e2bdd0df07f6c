import { createHash } from 'node:crypto';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { countAccountMail } from './account-mail';
import { DomainError, isDomainError } from './errors';
import { httpErrorOf } from './http';
import { clearFailures, recordFailure, refuseWhenSpent } from './rate-limit';

/**
 * What better-auth's routes do not check by themselves, as its before and after hooks:
 * - a profile (sign-up, update-user) has an email of at most MAX_EMAIL_CHARS, a name of at most MAX_NAME_CHARS and an image that is an
 *   http(s) URL or absent (a `javascript:` URL would run when a page links it);
 * - failed sign-ins are counted per account (the email, hashed), whatever address they come from:
 *   past SIGN_IN_FAILURES_PER_ACCOUNT in the window, sign-in to that account answers 429 with
 *   Retry-After until the window ends. A success clears the count; other accounts are not touched;
 * - a verification link sent again (signed out too) counts against the address it goes to and the
 *   caller's client address (lib/account-mail.ts), so nobody can flood a mailbox with them.
 */
const MAX_NAME_CHARS = 100;
/** The longest address SMTP can deliver to (RFC 5321's path limit less its brackets). */
const MAX_EMAIL_CHARS = 254;

const PROFILE_PATHS = new Set(['/sign-up/email', '/update-user']);
const SIGN_IN_PATH = '/sign-in/email';
const RESEND_PATH = '/send-verification-email';
const RESET_PATH = '/reset-password';

export const authBeforeHook = createAuthMiddleware(async (ctx) => {
  try {
    if (PROFILE_PATHS.has(ctx.path)) checkProfile(ctx.body);
    if (ctx.path === SIGN_IN_PATH) await refuseWhenSpent('sign-in', accountKey(ctx.body));
    if (ctx.path === RESEND_PATH) await countAccountMail(emailOf(ctx.body), ctx.headers);
  } catch (error) {
    throw asAuthError(error);
  }
});

export const authAfterHook = createAuthMiddleware(async (ctx) => {
  // A reset ends every session of the account, this browser's too when it was signed in to it.
  // Reading the session clears a cookie left pointing at none; kept, the anonymous plugin would read
  // it at this browser's next sign-in and clear the new session's cookie with it.
  if (ctx.path === RESET_PATH && !isAPIError(ctx.context.returned)) await getSessionFromCtx(ctx);
  if (ctx.path !== SIGN_IN_PATH) return;
  const key = accountKey(ctx.body);
  const returned = ctx.context.returned;
  if (isAPIError(returned)) {
    if (returned.statusCode === 401) await recordFailure('sign-in', key);
  } else {
    await clearFailures('sign-in', key);
  }
});

function checkProfile(body: unknown): void {
  const { name, image, email } = (body ?? {}) as { name?: unknown; image?: unknown; email?: unknown };
  if (typeof email === 'string' && email.length > MAX_EMAIL_CHARS) {
    throw new DomainError('email_too_long', `The email is ${email.length} characters long; an address has at most ${MAX_EMAIL_CHARS}.`);
  }
  if (typeof name === 'string' && [...name].length > MAX_NAME_CHARS) {
    throw new DomainError('name_too_long', `The name is ${[...name].length} characters long; at most ${MAX_NAME_CHARS} are allowed.`);
  }
  if (image !== undefined && image !== null && !isWebUrl(image)) {
    throw new DomainError('invalid_image', 'The image must be an http:// or https:// URL, or left out.');
  }
}

function isWebUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The account a sign-in names, hashed: the count must not keep every email (or password typed there) in clear. */
function accountKey(body: unknown): string {
  return createHash('sha256').update(emailOf(body).trim().toLowerCase()).digest('hex');
}

function emailOf(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * Our errors as better-auth's, which its router answers with (any other error is a bare 500): the
 * body carries both its `{code, message}` (its client reads them) and our `{error: {code, message}}`,
 * and the headers a rate limit's Retry-After.
 */
function asAuthError(error: unknown): unknown {
  if (!isDomainError(error)) return error;
  const { status, code, message, headers } = httpErrorOf(error);
  const body = { code, message, error: { code, message } };
  return new APIError(status === 429 ? 'TOO_MANY_REQUESTS' : 'BAD_REQUEST', body, headers);
}

/**
 * better-auth's own per-address limits (lib/auth.ts) answer 429 with only `X-Retry-After` and a bare
 * message: the same answer as every other limit, `Retry-After` and our error body beside its message.
 */
export async function asOurRateLimit(response: Response): Promise<Response> {
  const wait = response.headers.get('x-retry-after');
  if (response.status !== 429 || response.headers.has('retry-after') || !wait) return response;
  const message = `Too many requests from your address: try again in ${wait} seconds.`;
  const headers = new Headers(response.headers);
  headers.set('retry-after', wait);
  headers.delete('content-length');
  return Response.json({ code: 'rate_limited', message, error: { code: 'rate_limited', message } }, { status: 429, headers });
}
