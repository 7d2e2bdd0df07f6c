import { z } from 'zod';

/**
 * The database's own settings, read from the environment here so that db/ takes nothing from lib/;
 * lib/config.ts lists them with every other setting.
 */
export const databaseEnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined)),
  DB_POOL_MAX: z.coerce.number().int().nonnegative().default(10),
});

/** Read on every pool lookup (two fields): a changed DATABASE_URL opens a new pool. */
export function databaseSettings(): z.infer<typeof databaseEnvSchema> {
  const parsed = databaseEnvSchema.safeParse(process.env);
  if (!parsed.success) throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
