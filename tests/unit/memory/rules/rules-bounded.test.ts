import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { closeRules, forRules, ruleGiveUps, rules } from '@/lib/memory/rules/bounded';
import { extractFactCandidates } from '@/lib/memory/rules/facts';
import { summariseExtractive } from '@/lib/memory/rules/summarise';

// The rules as the app calls them: in worker threads, each text within a budget. These tests start
// real threads (the rules' own TypeScript through tsx), as the server does.

const now = new Date('2026-05-01T12:00:00Z');

function withSettings(settings: Record<string, string>) {
  Object.assign(process.env, settings);
  resetConfigForTests();
}

afterEach(() => {
  for (const key of ['RULE_BUDGET_MS', 'RULE_WAIT_MS', 'RULE_THREADS', 'RULE_INPUT_MAX_CHARS']) delete process.env[key];
  resetConfigForTests();
  vi.restoreAllMocks();
});
afterAll(() => closeRules());

describe('text as the rules read it', () => {
  it('collapses runs of spaces and of line breaks, keeping the lines apart', () => {
    expect(forRules('I live in \t\u00a0  Porto')).toBe('I live in Porto');
    expect(forRules('first line  \r\n\n   \n second line')).toBe('first line\nsecond line');
    expect(forRules(`I live in${' '.repeat(5000)}x`)).toBe('I live in x');
  });

  it('cuts a long text at the bound, never inside a surrogate pair', () => {
    withSettings({ RULE_INPUT_MAX_CHARS: '300' });
    expect(forRules('a'.repeat(1000))).toHaveLength(300);
    const cut = forRules(`${'a'.repeat(299)}😀 tail`);
    expect(cut).toBe('a'.repeat(299));
  });
});

describe('the rules in their threads', () => {
  it('answer as the rules themselves do', async () => {
    const said = 'My sister Ines moved to Valencia last spring, and I work as a carpenter.';
    expect(await rules.extractFactCandidates(said, now)).toEqual(extractFactCandidates(said, now));
    const messages = [{ role: 'user' as const, content: 'We are planning a cycling trip along the Danube in June.' }];
    expect((await rules.summariseExtractive(null, messages)).value).toBe(summariseExtractive(null, messages));
    expect(await rules.asksSomething('Where does my sister live?')).toBe(true);
  });

  it('give up on a text past the budget: the caller gets what no text gives, the count rises, the log holds no text', async () => {
    // Two threads: one reads on while the other, stopped, is replaced.
    await closeRules();
    withSettings({ RULE_THREADS: '2', RULE_BUDGET_MS: '1' });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Long enough that reading it takes far more than a millisecond on any machine.
    const secret = 'Tangerine';
    const long = Array.from({ length: 200 }, (_, i) => `On day ${i} my neighbour ${secret} told me I live in town number ${i}.`).join(' ');
    const before = ruleGiveUps();
    expect(await rules.extractFactCandidates(long, now)).toEqual([]);
    expect(ruleGiveUps()).toBe(before + 1);
    const logged = errors.mock.calls.map((call) => call.join(' ')).join('\n');
    expect(logged).toContain('extractFactCandidates ran past its budget of 1 ms');
    expect(logged).not.toContain(secret);

    // The stopped thread is replaced: the next text is read. The text that ran out is not read again
    // that day, however long the budget now is, and is not logged again.
    withSettings({ RULE_THREADS: '2', RULE_BUDGET_MS: '60000' });
    const logLines = errors.mock.calls.length;
    expect(await rules.extractFactCandidates(long, now)).toEqual([]);
    expect(ruleGiveUps()).toBe(before + 2);
    expect(errors.mock.calls.length).toBe(logLines);
    expect(await rules.extractFactCandidates('I live in Valencia.', now)).toEqual([
      { slot: 'location', text: 'I live in Valencia', value: 'valencia' },
    ]);
  });

  it('give up on a text that waits too long for a thread, without stopping the thread at work', async () => {
    await closeRules();
    withSettings({ RULE_THREADS: '1', RULE_WAIT_MS: '60000' });
    const long = Array.from({ length: 150 }, (_, i) => `I moved to district ${i} and I love sailing boat ${i}.`).join(' ');
    const busy = rules.extractFactCandidates(long, now);
    withSettings({ RULE_THREADS: '1', RULE_WAIT_MS: '1' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = ruleGiveUps();
    expect((await rules.rewriteOffline('Where is it?', [], now)).gaveUp).toBe(true);
    expect(ruleGiveUps()).toBe(before + 1);
    expect((await busy).length).toBeGreaterThan(0);
    await closeRules();
  });
});
