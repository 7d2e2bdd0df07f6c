import { defineConfig } from 'drizzle-kit';

// drizzle-kit only generates SQL here; migrations are applied at start by db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
});
