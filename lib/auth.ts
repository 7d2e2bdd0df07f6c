import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { nextCookies } from 'better-auth/next-js';
import { getDb } from '@/db/client';
import { authAccounts, authSessions, authUsers, authVerifications } from '@/db/schema';
import { adoptAccount } from '@/db/users';
import { getConfig } from './config';
import { authAfterHook, authBeforeHook } from './auth-guards';
import { logFromLibrary } from './log';
import { sendMail } from './mail';
import { sessionTokenFrom } from './session-cookie';

/**
 * Accounts: sign up, sign in and sign out with email and password, by better-auth on our own
 * Postgres (its drizzle adapter). Sessions, password hashing and the auth routes' CSRF checks are
 * the library's. Our `users` row is linked to the account: a guest who signs up becomes that member.
 */
function createAuth() {
  const config = getConfig();
  const baseURL = config.APP_URL ?? `http://${process.env.APP_HOST || '127.0.0.1'}:${process.env.PORT || 3000}`;
  return betterAuth({
    baseURL,
    secret: config.BETTER_AUTH_SECRET,
    database: drizzleAdapter(getDb(), {
      provider: 'pg',
      schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      autoSignIn: true,
      // A reset link proves the mailbox: every session of the account ends with the old password.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, url }) =>
        sendMail({ to: user.email, subject: 'Reset your memlens password', text: `To choose a new password, open ${url}\nIf you did not ask for this, ignore this mail.`, link: url }),
    },
    // Sign-up mails a link that proves the address; only a verified address can be staff (lib/session.ts).
    emailVerification: {
      sendOnSignUp: true,
      sendVerificationEmail: ({ user, url }) =>
        sendMail({ to: user.email, subject: 'Verify your memlens email', text: `To verify this address for memlens, open ${url}`, link: url }),
    },
    telemetry: { enabled: false },
    logger: { log: (level, message, ...args) => logFromLibrary('auth', level, message, args) },
    hooks: { before: authBeforeHook, after: authAfterHook },
    databaseHooks: {
      user: {
        create: {
          // The guest behind this browser's cookie (if any) becomes the new member.
          after: async (user, context) => {
            const guestToken = sessionTokenFrom(context?.headers?.get('cookie') ?? context?.request?.headers.get('cookie') ?? null);
            await adoptAccount({ authUserId: user.id, email: user.email, name: user.name, guestToken });
          },
        },
      },
    },
    plugins: [nextCookies()],
  });
}

export function isStaffEmail(email: string): boolean {
  return getConfig().STAFF_EMAILS.includes(email.trim().toLowerCase());
}

type Auth = ReturnType<typeof createAuth>;
const holder = globalThis as typeof globalThis & { __memlensAuth?: { auth: Auth; url: string } };

/** One instance per process and database (tests switch databases between runs). */
export function getAuth(): Auth {
  const url = getConfig().DATABASE_URL ?? '';
  if (holder.__memlensAuth?.url !== url) holder.__memlensAuth = { auth: createAuth(), url };
  return holder.__memlensAuth.auth;
}
