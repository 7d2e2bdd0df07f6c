// Every test file runs on the offline model unless it says otherwise, and reaches no database unless its
// project provides one (tests/support/database-env.ts): a stray query in tests/unit/ fails loudly.
delete process.env.DATABASE_URL;
delete process.env.OPENAI_API_KEY;
delete process.env.OPENAI_BASE_URL;
process.env.OFFLINE_STREAM_DELAY_MS = '0';
// One rules thread per test file: each thread loads the rules (about 1.5 s of CPU), and a test file's
// turns come one at a time. tests/unit/memory/rules/rules-bounded.test.ts sizes its own pools.
process.env.RULE_THREADS ??= '1';
process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-suite-only-0123456789abcdef';
