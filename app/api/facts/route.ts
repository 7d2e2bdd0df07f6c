import { z } from 'zod';
import { userActor } from '@/lib/audit';
import { DomainError, notFound } from '@/lib/errors';
import { HttpError, otherMethods, parseInput, readJson, route } from '@/lib/http';
import { correctFacts, forgetFacts } from '@/lib/memory/corrections';
import { addFactByHand, decodeCursor, describeFacts } from '@/lib/memory/memory-page';
import { FACT_SLOTS } from '@/lib/memory/rules/fact-types';
import { enforceRateLimit } from '@/lib/rate-limit';
import { factsPage, factsWithSources } from '@/lib/services/memory';
import { requireReader, requireUser, requireUserOrStartGuest } from '@/lib/session';
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
 * conversation) and the replies that cited it (`usedIn`). One statement is one item: the facts it
 * gave (one per kind: "My wife and I moved to Lisbon" is family and home) are listed once, with
 * their `ids` and `kinds`, and counted and paged as one.
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
  const [fact] = await describeFacts(user.id, [[added.fact]]);
  return Response.json({ fact, replaced: added.replaced }, { status: 201 });
});

/** The facts of one listed item (its `ids`): a statement, one fact per kind it gave. */
const itemIds = z
  .array(z.uuid({ error: 'must be fact ids (uuid)' }), { error: 'must be an array of fact ids' })
  .min(1, 'must name at least one fact')
  .max(50, 'names more than 50 facts');

const itemNotFound = (ids: string[]) => notFound('Fact', ids.join(', '));

/**
 * PATCH /api/facts {ids, content}: corrects the text of a listed item, every fact of it (its `ids`),
 * as one change with one undo. Facts not found are left out; 404 when none is.
 */
export const PATCH = route(async (request: Request) => {
  const user = await requireUser(request);
  const { ids, content } = await readJson(
    request,
    strictObject({ ids: itemIds, content: text().trim().min(1, 'must not be empty').max(2000, 'is longer than 2000 characters') }),
  );
  const edited = await correctFacts(user.id, ids, content, userActor(user, request));
  if (!edited) throw itemNotFound(ids);
  return Response.json({ facts: await factsWithSources(user.id, edited.facts), undo: edited.undo });
});

/**
 * DELETE /api/facts {ids}: forgets a listed item, every fact of it (its `ids`), as one change with one
 * undo, as DELETE /api/facts/:id forgets one. Facts not found are left out; 404 when none is.
 */
export const DELETE = route(async (request: Request) => {
  const user = await requireUser(request);
  const { ids } = await readJson(request, strictObject({ ids: itemIds }));
  const result = await forgetFacts(user.id, ids, userActor(user, request));
  if (result.deleted.length === 0) throw itemNotFound(ids);
  return Response.json({
    deleted: result.deleted,
    messagesMarked: result.messagesMarked,
    recordsRedacted: result.recordsRedacted,
    undo: result.undo,
  });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT } = otherMethods(['GET', 'POST', 'PATCH', 'DELETE']);
