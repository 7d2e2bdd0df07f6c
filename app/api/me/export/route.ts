import { DomainError } from '@/lib/errors';
import { otherMethods, route } from '@/lib/http';
import { exportAccount } from '@/lib/services/account';
import { userFromHeaders } from '@/lib/session';

/** GET /api/me/export: everything this user owns, as a JSON file to download. */
export const GET = route(async (request: Request) => {
  // Nothing to export without a session: no guest is made just to be exported.
  const user = await userFromHeaders(request.headers);
  if (!user) throw new DomainError('no_session', 'No session: there is nothing here to export.');
  const body = await exportAccount(user.id);
  const day = body.exportedAt.slice(0, 10);
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="memlens-export-${day}.json"`,
      'cache-control': 'no-store',
    },
  });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
