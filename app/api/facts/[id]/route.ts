import { userActor } from '@/lib/audit';
import { notFound } from '@/lib/errors';
import { otherMethods, readJson, readNoBody, route, uuidParam } from '@/lib/http';
import { correctFact, forgetFacts } from '@/lib/memory/corrections';
import { factWithHistory, factWithSources } from '@/lib/services/memory';
import { requireUser } from '@/lib/session';
import { strictObject, text } from '@/lib/validation';

type Params = { params: Promise<{ id: string }> };

/** One fact with its history of events (event, old, new, actor, time). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Fact');
  return Response.json(await factWithHistory(user.id, id));
});

export const PATCH = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Fact');
  const { content } = await readJson(
    request,
    strictObject({ content: text().trim().min(1, 'must not be empty').max(2000, 'is longer than 2000 characters') }),
  );
  const edited = await correctFact(user.id, id, content, userActor(user, request));
  if (!edited) throw notFound('Fact', id);
  return Response.json({ fact: await factWithSources(user.id, edited.fact), undo: edited.undo });
});

/**
 * Removes the fact, its embedding and its history at once; its statement leaves episodes and
 * summaries, the messages that held it are marked, and turn records that quoted it are redacted.
 */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Fact');
  await readNoBody(request);
  const result = await forgetFacts(user.id, [id], userActor(user, request));
  if (result.deleted.length === 0) throw notFound('Fact', id);
  return Response.json({ deleted: id, messagesMarked: result.messagesMarked, recordsRedacted: result.recordsRedacted, undo: result.undo });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT } = otherMethods(['GET', 'PATCH', 'DELETE']);
