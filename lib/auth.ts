import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { nextCookies } from 'better-auth/next-js';
import { anonymous } from 'better-auth/plugins';
import { getDb } from '@/db/client';
import { authAccounts, authRateLimits, authSessions, authUsers, authVerifications } from '@/db/schema';
import { createGuest } from '@/db/users';
import { authAfterHook, authBeforeHook } from './auth-guards';
import { CLIENT_ADDRESS_HEADER, clientAddress } from './client-address';
import { getConfig } from './config';
import { linkGuest } from './guest-link';
import { logFromLibrary } from './log';
import { sendMail } from './mail';

/**
 * Accounts and every session: sign up, sign in and sign out with email and password, and guests as
 * better-auth's anonymous accounts, on our own Postgres (its drizzle adapter). Sessions, password
 * hashing and the auth routes' CSRF checks are the library's. Our `users` row comes with the
 * account (the databaseHooks below); a guest who signs up or in is linked by lib/guest-link.ts.
 */
function createAuth() {
  const config = getConfig();
  const baseURL = config.APP_URL ?? `http://${process.env.APP_HOST || '127.0.0.1'}:${process.env.PORT || 3000}`;
  return betterAuth({
    baseURL,
    secret: config.BETTER_AUTH_SECRET,
    database: drizzleAdapter(getDb(), {
      provider: 'pg',
      schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications, rateLimit: authRateLimits },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      autoSignIn: true,
      // A reset link proves the mailbox: every session of the account ends with the old password.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, url }) =>
        sendMail({
          to: user.email,
          subject: 'Reset your memlens password',
          text: `To choose a new password, open ${url}\nIf you did not ask for this, ignore this mail.`,
          link: url,
        }),
    },
    // Sign-up mails a link that proves the address; only a verified address can be staff (lib/session.ts).
    emailVerification: {
      sendOnSignUp: true,
      sendVerificationEmail: ({ user, url }) =>
        sendMail({
          to: user.email,
          subject: 'Verify your memlens email',
          text: `To verify this address for memlens, open ${url}`,
          link: url,
        }),
    },
    // Guests start on the server, at a browser's first write (lib/session.ts), never by this route,
    // so a script cannot mint sessions without writing anything (and meeting the per-address bound).
    disabledPaths: ['/sign-in/anonymous'],
    // Its per-address limits (3 sign-ins per 10 s, …) counted in Postgres: one count for every process and instance.
    rateLimit: { storage: 'database' },
    telemetry: { enabled: false },
    logger: { log: (level, message, ...args) => logFromLibrary('auth', level, message, args) },
    hooks: { before: authBeforeHook, after: authAfterHook },
    databaseHooks: {
      user: {
        create: {
          // Our user row comes with the account: a guest's with its anonymous account; a member's at
          // sign-up, taking over the guest of the browser that signed up, if it had one.
          after: async (user, context) => {
            const headers = context?.headers ?? context?.request?.headers;
            if (user.isAnonymous) return void (await createGuest(user.id, headers ? clientAddress(headers) : null));
            const session = headers ? await getAuth().api.getSession({ headers }) : null;
            await linkGuest(session?.user.isAnonymous ? session.user.id : null, user);
          },
        },
      },
    },
    advanced: {
      ...sessionCookies(baseURL),
      // The address the app's server resolved (TRUSTED_PROXIES), never a client's X-Forwarded-For: its per-address limits hold.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    plugins: [
      anonymous({
        generateName: () => 'Guest',
        onLinkAccount: async ({ anonymousUser, newUser }) => {
          await linkGuest(anonymousUser.user.id, newUser.user);
        },
      }),
      // Last: it hands the cookies of calls made from server code to Next.
      nextCookies(),
    ],
  });
}

/**
 * Over https the session cookie is `__Host-better-auth.session_token`: Secure, Path=/, no Domain, so
 * neither a page on another port or subdomain of the host nor plain http can set or replace it
 * (cookies ignore ports). better-auth's own `__Secure-` prefix is turned off, as it would come first.
 */
function sessionCookies(baseURL: string) {
  if (!baseURL.startsWith('https://')) return { useSecureCookies: false };
  return { useSecureCookies: false, cookiePrefix: '__Host-better-auth', defaultCookieAttributes: { secure: true, path: '/' } };
}

export function isStaffEmail(email: string): boolean {
  return getConfig().STAFF_EMAILS.includes(email.trim().toLowerCase());
}

type Auth = ReturnType<typeof createAuth>;
const holder = globalThis as typeof globalThis & { __memlensAuth?: { auth: Auth; key: string } };

/** One instance per process, database and public URL (tests switch both between runs). */
export function getAuth(): Auth {
  const config = getConfig();
  const key = `${config.DATABASE_URL ?? ''} ${config.APP_URL ?? ''}`;
  if (holder.__memlensAuth?.key !== key) holder.__memlensAuth = { auth: createAuth(), key };
  return holder.__memlensAuth.auth;
}
