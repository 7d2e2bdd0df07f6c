import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { strictObject } from '@/lib/validation';
import { OVERRIDES } from './replay';
import { modelLimits } from './tokens';

// The body of a replay request (the user's own route and the staff console's), strict.

/** A whole number in [min, max]; out of range is `out_of_range` (not the generic `empty`/`too_large` of a string's length). */
const whole = (min: number, max: number, why = '') =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .refine((n) => n >= min && n <= max, { message: `must be from ${min} to ${max}${why}`, params: { code: 'out_of_range' } });

/** Windows this long are explored around any HISTORY_WINDOW; a replay's cost grows with both settings. */
const LONGEST_WINDOW = 100;

/**
 * The body schema, bounded by what the chat model can take: a budget up to its context window less
 * the tokens reserved for the reply (or the configured budget, if larger), and a window up to the
 * larger of HISTORY_WINDOW and 100 messages. A larger replay would describe no turn the app can
 * send, and only cost CPU.
 */
export function replaySchema() {
  const config = getConfig();
  const modelId = getModels().chatModelId;
  const limits = modelLimits(config, modelId);
  const maxBudget = Math.max(limits.budget, limits.contextWindow - limits.reservedOutput);
  const maxWindow = Math.max(config.HISTORY_WINDOW, LONGEST_WINDOW);
  return replayBody(
    whole(1, maxBudget, ` tokens: ${modelId}'s context window of ${limits.contextWindow} less ${limits.reservedOutput} kept for the reply`),
    whole(0, maxWindow, ' messages'),
  );
}

const replayBody = (budget: z.ZodType<number>, window: z.ZodType<number>) =>
  strictObject({
    mode: z.enum(['stored', 'today'], { error: 'must be "stored" or "today"' }).optional(),
    budget: budget.optional(),
    window: window.optional(),
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
