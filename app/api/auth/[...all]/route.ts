import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '@/lib/auth';
import { asOurRateLimit } from '@/lib/auth-guards';
import { otherMethods, readJsonBody, route } from '@/lib/http';

/** better-auth's own routes: sign up, sign in, sign out, session (/api/auth/*); its 429s as every limit's. */
const auth = toNextJsHandler(async (request: Request) => asOurRateLimit(await getAuth().handler(request)));

export const GET = auth.GET;

/**
 * Bodies are refused as on every other route (too large, not JSON, nested too deeply, NUL or lone
 * surrogates) before better-auth reads them: a NUL in a name was a failed insert with its SQL logged.
 */
export const POST = route(async (request: Request) => {
  await readJsonBody(request.clone(), { emptyAs: {} });
  return auth.POST(request);
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
