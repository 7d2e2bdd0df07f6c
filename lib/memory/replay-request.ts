import { z } from 'zod';
import { strictObject } from '../validation';
import { OVERRIDES } from './replay';

// The body of a replay request (the user's own route and the staff console's), strict.

/** A whole number in [min, max]; out of range is `out_of_range` (not the generic `empty`/`too_large` of a string's length). */
const whole = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .refine((n) => n >= min && n <= max, { message: `must be from ${min} to ${max}`, params: { code: 'out_of_range' } });

export const replaySchema = strictObject({
  mode: z.enum(['stored', 'today'], { error: 'must be "stored" or "today"' }).optional(),
  budget: whole(1, 2_000_000).optional(),
  window: whole(0, 1000).optional(),
  factsTopK: whole(0, 200).optional(),
  episodesTopK: whole(0, 200).optional(),
  episodeScope: z.enum(['conversation', 'related', 'user'], { error: 'must be "conversation", "related" or "user"' }).optional(),
}).superRefine((body, ctx) => {
  if (body.mode !== 'stored') return;
  for (const name of OVERRIDES) {
    if (body[name] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'applies only to a replay with today\'s memory (mode "today")',
        params: { code: 'not_with_stored' },
      });
    }
  }
});
