import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { nextCookies } from 'better-auth/next-js';
import { anonymous } from 'better-auth/plugins';
import { getDb } from '@/db/client';
import { authAccounts, authRateLimits, authSessions, authUsers, authVerifications } from '@/db/schema';
import { createGuest } from '@/db/users';
import { sendExistingAccountNote, sendResetMail, sendVerificationMail } from './account-mail';
import { authAfterHook, authBeforeHook } from './auth-guards';
import { CLIENT_ADDRESS_HEADER, clientAddress } from './client-address';
import { getConfig } from './config';
import { linkGuest } from './guest-link';
import { logFromLibrary } from './log';
import { acceptInvite, INVITE_SECONDS } from './roles';

/**
 * Accounts and every session: sign up, sign in and sign out with email and password, and guests as
 * better-auth's anonymous accounts, on our own Postgres (its drizzle adapter). Sessions, password
 * hashing and the auth routes' CSRF checks are the library's. A guest's `users` row comes with its
 * anonymous account (the databaseHooks below); a member's when the address is proven, taking over
 * the guest of the browser that proved it (lib/guest-link.ts). A guest who signs in is merged.
 */
function createAuth() {
  const config = getConfig();
  const baseURL = config.APP_URL ?? `http://${config.APP_HOST}:${config.PORT}`;
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
      // No session until the address is proven, so a sign-up answers the same whether or not the
      // address already has an account (its owner is mailed a note instead): nobody learns which do.
      requireEmailVerification: true,
      onExistingUserSignUp: ({ user }, request) => sendExistingAccountNote(user, baseURL, request),
      // A reset link proves the mailbox: every session of the account ends with the old password,
      // and then a staff invite waiting for the account is used (lib/staff-invite.ts).
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: INVITE_SECONDS,
      sendResetPassword: sendResetMail,
      onPasswordReset: async ({ user }) => void (await acceptInvite(user)),
    },
    // Following the mailed link signs that browser in. It proves the address, and nothing more: staff are invited.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: sendVerificationMail,
      // The member's user row comes now, taking over the guest of the browser that followed the link, if it had one.
      afterEmailVerification: async (user, request) => {
        const session = request ? await getAuth().api.getSession({ headers: request.headers }) : null;
        await linkGuest(session?.user.isAnonymous ? session.user.id : null, user);
      },
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
          // A guest's user row comes with its anonymous account. A member's waits for the proven
          // address (afterEmailVerification): made at sign-up, it would take a guest into an account
          // whose address may be someone else's.
          after: async (user, context) => {
            if (!user.isAnonymous) return;
            const headers = context?.headers ?? context?.request?.headers;
            await createGuest(user.id, headers ? clientAddress(headers) : null);
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
