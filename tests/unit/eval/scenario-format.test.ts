import { describe, expect, it } from 'vitest';
import { occurrences, quotedItems, scenarioFileSchema } from '@/lib/eval/scenarios';

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

describe('what a reply quotes, as the answer measures read it', () => {
  const numbered = [
    { n: 1, text: 'I keep bees on the allotment' },
    { n: 2, text: 'My cousin Anouk plays the oboe' },
  ];

  it('reads a citation as its item, a quote cited by nothing as its words, in order', () => {
    const reply = 'You told me: "My cousin Anouk plays the oboe" [2]. Also, you told me: "I fly kites". And: "bees" [1].';
    expect(quotedItems(reply, numbered)).toEqual(['My cousin Anouk plays the oboe', 'I fly kites', 'I keep bees on the allotment']);
    expect(quotedItems('你说过：“我养蜂”。', numbered)).toEqual(['我养蜂']);
    expect(quotedItems("Nothing you've told me answers that yet.", numbered)).toEqual([]);
  });

  it('reads two citations after one quote as two items', () => {
    expect(quotedItems('Both: "bees, oboe" [1][2].', numbered)).toEqual(numbered.map((item) => item.text));
  });
});
