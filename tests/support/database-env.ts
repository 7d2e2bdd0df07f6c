import { inject } from 'vitest';

// The integration projects' files talk to the database their project set up (tests/support/global-db.ts).
process.env.DATABASE_URL = inject('databaseUrl');
// The suite mints thousands of guests in one shared database; the bounds have their own test (accounts.test.ts).
process.env.GUESTS_PER_ADDRESS_PER_HOUR = '1000000';
// Per-user request limits have their own test (rate-limit.test.ts); elsewhere a user may send as fast as a test likes.
process.env.CHAT_RATE_LIMIT = '1000000';
process.env.IMPORT_RATE_LIMIT = '1000000';
process.env.REPLAY_RATE_LIMIT = '1000000';
process.env.CONVERSATION_RATE_LIMIT = '1000000';
process.env.FACT_RATE_LIMIT = '1000000';
