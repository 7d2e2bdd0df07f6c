import { z } from 'zod';
import { deleteFacts, editFact, getFact, getFactHistory } from '@/db/facts';
import { notFound, readJson, route, uuidParam } from '@/lib/http';
import { getModels } from '@/lib/llm';
import { embedTexts } from '@/lib/memory/embed';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** One fact with its history of events (event, old, new, actor, time). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Fact');
  const fact = await getFact(user.id, id);
  if (!fact) throw notFound('Fact', id);
  const { embedding: _embedding, ...shown } = fact;
  return Response.json({ fact: shown, history: await getFactHistory(user.id, id) });
});

export const PATCH = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Fact');
  const { content } = await readJson(request, z.object({ content: z.string().trim().min(1, 'must not be empty').max(2000) }));
  const [embedding] = await embedTexts(getModels(), [content]);
  const fact = await editFact(user.id, id, content, embedding, `user:${user.id}`);
  if (!fact) throw notFound('Fact', id);
  const { embedding: _embedding, ...shown } = fact;
  return Response.json({ fact: shown });
});

/** Removes the fact, its embedding and its history at once. */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Fact');
  const [deleted] = await deleteFacts(user.id, [id]);
  if (!deleted) throw notFound('Fact', id);
  return Response.json({ deleted });
});
