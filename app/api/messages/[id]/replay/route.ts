import { z } from 'zod';
import { readJson, route, uuidParam } from '@/lib/http';
import { OVERRIDES, replayTurn, type ReplayOptions } from '@/lib/memory/replay';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

const FIELDS = ['mode', ...OVERRIDES];
/** A whole number in [min, max]; out of range is `out_of_range` (not the generic `empty`/`too_large` of a string's length). */
const whole = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .refine((n) => n >= min && n <= max, { message: `must be from ${min} to ${max}`, params: { code: 'out_of_range' } });

const replaySchema = z
  .strictObject(
    {
      mode: z.enum(['stored', 'today'], { error: 'must be "stored" or "today"' }).optional(),
      budget: whole(1, 2_000_000).optional(),
      window: whole(0, 1000).optional(),
      factsTopK: whole(0, 200).optional(),
      episodesTopK: whole(0, 200).optional(),
      episodeScope: z.enum(['conversation', 'user'], { error: 'must be "conversation" or "user"' }).optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')} (allowed: ${FIELDS.join(', ')})`
          : undefined,
    },
  )
  .superRefine((body, ctx) => {
    if (body.mode !== 'stored') return;
    for (const name of OVERRIDES) {
      if (body[name] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'applies only to a replay with today\'s memory (mode "today")', params: { code: 'not_with_stored' } });
      }
    }
  });

/** Replay with today's memory and the app's configuration: the context this turn would get now, and the difference. */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  return Response.json(await replayTurn({ userId: user.id }, id, { mode: 'today' }));
});

/** Replay as stored, or with today's memory and other settings: `{ mode?, budget?, window?, factsTopK?, episodesTopK?, episodeScope? }`. */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  const options: ReplayOptions = await readJson(request, replaySchema, { emptyAs: {} });
  return Response.json(await replayTurn({ userId: user.id }, id, options));
});
