import { z } from 'zod';
import { userActor } from '@/lib/audit';
import { DomainError, notFound } from '@/lib/errors';
import { otherMethods, readJson, readNoBody, route } from '@/lib/http';
import { clearSummary, editSummary } from '@/lib/memory/corrections';
import { summaryWithVersions } from '@/lib/services/conversations';
import { requireConversationScope } from '@/lib/session';
import { strictObject, text } from '@/lib/validation';

type Params = { params: Promise<{ id: string }> };

/** The current summary and every version of it (who, when, before/after). */
export const GET = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  return Response.json(await summaryWithVersions(scope));
});

const editSchema = strictObject({
  content: text().max(20_000, 'is longer than 20000 characters'),
  /** The version being edited; a stale one is refused with 409 instead of overwriting a newer summary. */
  version: z.number().int().positive().optional(),
});

/** Edit by hand: the edited text becomes the base of the next refresh. */
export const PUT = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  const { content, version } = await readJson(request, editSchema);
  const result = await editSummary(scope, content, version, userActor(scope.user, request));
  if (result.status === 'stale') {
    throw new DomainError(
      'stale_version',
      `The summary is at version ${result.current ?? 'none'}, not ${version ?? 'the one you edited'}; reload and edit again.`,
    );
  }
  return Response.json({ summary: result.summary });
});

/** Clear: the summary becomes empty, and later refreshes start after this point, so they never restore it. */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  await readNoBody(request);
  const result = await clearSummary(scope, userActor(scope.user, request));
  if (result.status === 'missing') throw notFound('Summary of conversation', scope.conversationId);
  if (result.status === 'stale') throw new DomainError('stale_version', 'The summary changed meanwhile; reload and try again.');
  return Response.json({ summary: result.summary, undo: result.undo });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PATCH } = otherMethods(['GET', 'PUT', 'DELETE']);
