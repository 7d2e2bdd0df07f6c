import { z } from 'zod';
import { userActor } from '@/lib/audit';
import { DomainError } from '@/lib/errors';
import { HttpError, otherMethods, parseInput, readJson, route } from '@/lib/http';
import { addFactByHand, decodeCursor, describeFacts } from '@/lib/memory/memory-page';
import { FACT_SLOTS } from '@/lib/memory/rules/fact-types';
import { enforceRateLimit } from '@/lib/rate-limit';
import { factsPage } from '@/lib/services/memory';
import { requireReader, requireUserOrStartGuest } from '@/lib/session';
import { strictObject, text } from '@/lib/validation';

const listQuery = z.object({
  status: z.enum(['active', 'superseded', 'deleted']).optional(),
  /** Words the fact contains, case aside (any script: Chinese matches by substring). */
  q: text().trim().max(200, 'is longer than 200 characters').optional(),
  cursor: text().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/**
 * GET /api/facts?status=active|superseded|deleted (default: all)&q=words&cursor=&limit=: the user's
 * facts, newest change first, a page at a time (50 unless `limit`, at most 100; `nextCursor` asks for
 * the next page, null on the last; `total` counts every match), each with its sources (message, span,
 * conversation) and the replies that cited it (`usedIn`).
 */
export const GET = route(async (request: Request) => {
  const user = await requireReader(request);
  const search = new URL(request.url).searchParams;
  const input = parseInput(
    {
      status: search.get('status') ?? undefined,
      q: search.get('q') ?? undefined,
      cursor: search.get('cursor') || undefined,
      limit: search.get('limit') ?? undefined,
    },
    listQuery,
  );
  const cursor = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  if (input.cursor !== undefined && !cursor) throw new HttpError(400, 'invalid', 'cursor: is not a cursor this API gave out.');
  return Response.json(await factsPage(user.id, { status: input.status, q: input.q || undefined, cursor, limit: input.limit }));
});

const newFact = strictObject({
  content: text().trim().min(1, 'must not be empty').max(2000, 'is longer than 2000 characters'),
  slot: z.enum(FACT_SLOTS).optional(),
});

/**
 * POST /api/facts {content, slot?}: a fact added by hand (no source message; slot `statement`
 * unless given). 201 with the fact; 409 when an active fact already says exactly that.
 */
export const POST = route(async (request: Request) => {
  // The body first: a bad one makes no guest.
  const { content, slot } = await readJson(request, newFact);
  const user = await requireUserOrStartGuest(request);
  await enforceRateLimit('fact', user.id);
  const added = await addFactByHand(user.id, { content, slot: slot ?? 'statement' }, userActor(user, request));
  if (added.status === 'duplicate') {
    throw new DomainError('duplicate', 'memlens already keeps this fact.', { factId: added.fact.id });
  }
  const [fact] = await describeFacts(user.id, [added.fact]);
  return Response.json({ fact, replaced: added.replaced }, { status: 201 });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
