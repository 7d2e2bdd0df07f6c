import { z } from 'zod';
import { coveredUntil, getSummary, listSummaryVersions, summarySources, writeSummary } from '@/db/summaries';
import { HttpError, notFound, readJson, route } from '@/lib/http';
import { clearSummary } from '@/lib/memory/corrections';
import { requireConversationScope } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** The current summary and every version of it (who, when, before/after). */
export const GET = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  const summary = await getSummary(scope);
  return Response.json({
    summary: summary ? { ...summary, sourceMessageIds: await summarySources(scope, summary.version) } : null,
    versions: await listSummaryVersions(scope),
  });
});

const editSchema = z.object({
  content: z.string().max(20_000, 'is longer than 20000 characters'),
  /** The version being edited; a stale one is refused with 409 instead of overwriting a newer summary. */
  version: z.number().int().positive().optional(),
});

/** Edit by hand: the edited text becomes the base of the next refresh. */
export const PUT = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  const { content, version } = await readJson(request, editSchema);
  const current = await getSummary(scope);
  if (version !== undefined && current?.version !== version) {
    throw new HttpError(409, 'stale_version', `The summary is at version ${current?.version ?? 'none'}, not ${version}; reload and edit again.`);
  }
  const written = await writeSummary(
    scope,
    {
      content,
      coveredMessageCount: current?.coveredMessageCount ?? 0,
      coveredUntil: coveredUntil(current),
      sourceMessageIds: current ? await summarySources(scope, current.version) : [],
      actor: `user:${scope.userId}`,
      action: 'edit',
    },
    current?.version ?? null,
  );
  if (!written) throw new HttpError(409, 'stale_version', 'The summary changed meanwhile; reload and edit again.');
  return Response.json({ summary: written });
});

/** Clear: the summary becomes empty, and later refreshes start after this point, so they never restore it. */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  const result = await clearSummary(scope, `user:${scope.userId}`);
  if (result.status === 'missing') throw notFound('Summary of conversation', scope.conversationId);
  if (result.status === 'stale') throw new HttpError(409, 'stale_version', 'The summary changed meanwhile; reload and try again.');
  return Response.json({ summary: result.summary });
});
