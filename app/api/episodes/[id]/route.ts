import { userActor } from '@/lib/audit';
import { notFound } from '@/lib/errors';
import { otherMethods, readNoBody, route, uuidParam } from '@/lib/http';
import { forgetEpisode } from '@/lib/memory/corrections';
import { episodeWithSources } from '@/lib/services/memory';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** One remembered exchange, with the messages it was made from. */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Episode');
  return Response.json({ episode: await episodeWithSources(user.id, id) });
});

/**
 * Forgets the exchange: its messages are marked forgotten (the chat keeps them), the episode goes,
 * summaries that covered it are rebuilt and turn records that quoted it are redacted. Facts learned
 * from it stay (they are deleted on their own).
 */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Episode');
  await readNoBody(request);
  const result = await forgetEpisode(user.id, id, userActor(user, request));
  if (!result) throw notFound('Episode', id);
  return Response.json({ deleted: id, messagesMarked: result.messagesMarked, recordsRedacted: result.recordsRedacted, undo: result.undo });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
