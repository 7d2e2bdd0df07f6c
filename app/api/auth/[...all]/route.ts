import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '@/lib/auth';

/** better-auth's own routes: sign up, sign in, sign out, session (/api/auth/*). */
export const { GET, POST } = toNextJsHandler((request: Request) => getAuth().handler(request));
