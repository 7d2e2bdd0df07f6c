import { inject } from 'vitest';

// Every test file talks to the shared embedded database and, unless it says otherwise, the offline model.
process.env.DATABASE_URL = inject('databaseUrl');
delete process.env.OPENAI_API_KEY;
delete process.env.OPENAI_BASE_URL;
process.env.OFFLINE_STREAM_DELAY_MS = '0';
process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-suite-only-0123456789abcdef';
// The suite mints thousands of guests in one shared database; the bounds have their own test (accounts.test.ts).
process.env.GUESTS_PER_ADDRESS_PER_HOUR = '1000000';
// Per-user request limits have their own test (rate-limit.test.ts); elsewhere a user may send as fast as a test likes.
process.env.CHAT_RATE_LIMIT = '1000000';
process.env.IMPORT_RATE_LIMIT = '1000000';
process.env.REPLAY_RATE_LIMIT = '1000000';
