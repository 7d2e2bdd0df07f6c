import { z } from 'zod';
import { otherMethods, parseInput, route } from '@/lib/http';
import { recentChangesOf } from '@/lib/services/recent-changes';
import { requireUser } from '@/lib/session';

const listQuery = z.object({
  /** The id of the last change of the page before. */
  cursor: z.uuid({ error: 'is not a cursor this API gave out' }).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/**
 * GET /api/corrections?cursor=&limit=: the signed-in user's recent changes to memory, newest first,
 * each in words with who made it and `undo: {id, expiresAt}` while the user can undo it (staff's
 * changes are listed without); `nextCursor` asks for the next page (null on the last). Signed out: 401.
 */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const search = new URL(request.url).searchParams;
  const input = parseInput({ cursor: search.get('cursor') || undefined, limit: search.get('limit') ?? undefined }, listQuery);
  return Response.json(await recentChangesOf(user.id, input));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
