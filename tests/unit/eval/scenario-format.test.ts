import { describe, expect, it } from 'vitest';
import { occurrences, scenarioFileSchema } from '@/lib/eval/scenarios';

const file = (message: Record<string, unknown>, expect: Record<string, unknown> = {}) => ({
  format: 'memory-scenarios/1',
  scenarios: [{ id: 'x', conversations: [[message]], probe: { conversation: 0, message: 'hi' }, expect }],
});

describe('memory-scenarios/1 format', () => {
  it('keeps when a message was said, and refuses a time that is no ISO date-time', () => {
    const parsed = scenarioFileSchema.parse(file({ role: 'user', content: 'a', createdAt: '2025-03-04T09:30:00Z' }));
    expect(parsed.scenarios[0].conversations[0][0].createdAt).toBe('2025-03-04T09:30:00Z');
    expect(scenarioFileSchema.safeParse(file({ role: 'user', content: 'a', createdAt: 'last Tuesday' })).success).toBe(false);
  });

  it('reads files written before the optional fields', () => {
    expect(scenarioFileSchema.safeParse(file({ role: 'user', content: 'a' }, { context_contains: ['a'] })).success).toBe(true);
  });

  it('refuses an empty string to count or to keep out', () => {
    expect(scenarioFileSchema.safeParse(file({ role: 'user', content: 'a' }, { context_once: [''] })).success).toBe(false);
    expect(scenarioFileSchema.safeParse(file({ role: 'user', content: 'a' }, { context_absent: [''] })).success).toBe(false);
  });

  it('counts a repeated statement each time it appears, Chinese as English', () => {
    expect(occurrences('kayak on Sunday\n...\nkayak on Sunday', 'kayak on Sunday')).toBe(2);
    expect(occurrences('我周末去划船', '划船')).toBe(1);
    expect(occurrences('nothing here', 'kayak')).toBe(0);
  });
});
