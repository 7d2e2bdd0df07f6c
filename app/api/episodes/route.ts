import { z } from 'zod';
import { HttpError, otherMethods, parseInput, route } from '@/lib/http';
import { decodeCursor } from '@/lib/memory/memory-page';
import { episodesPage } from '@/lib/services/memory';
import { requireReader } from '@/lib/session';
import { text } from '@/lib/validation';

const listQuery = z.object({
  /** Words the exchange contains, case aside (any script: Chinese matches by substring). */
  q: text().trim().max(200, 'is longer than 200 characters').optional(),
  cursor: text().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * GET /api/episodes?q=&cursor=&limit=: the user's remembered exchanges (what recall can bring back),
 * newest first, a page at a time; `nextCursor` asks for the next page (null on the last).
 */
export const GET = route(async (request: Request) => {
  const user = await requireReader(request);
  const search = new URL(request.url).searchParams;
  const input = parseInput(
    { q: search.get('q') ?? undefined, cursor: search.get('cursor') || undefined, limit: search.get('limit') ?? undefined },
    listQuery,
  );
  const cursor = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  if (input.cursor !== undefined && !cursor) throw new HttpError(400, 'invalid', 'cursor: is not a cursor this API gave out.');
  return Response.json(await episodesPage(user.id, { q: input.q || undefined, cursor, limit: input.limit }));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
