import { describe, expect, it } from 'vitest';
import type { MemoryItem } from '@/lib/memory/context/context-item';
import { UNRANKED } from '@/lib/memory/context/context-item';
import { citedKeys, repeatedKeys } from '@/lib/memory/context/context-layout';
import type { NumberedItem } from '@/lib/memory/context/state';

// A reply is linked to the memory it repeats, cited or not, so a correction finds the copy.

const numbered = (n: number, item: MemoryItem): NumberedItem => ({ ...item, n, tokens: 10 });
const items: NumberedItem[] = [
  numbered(1, {
    key: 'fact:a',
    kind: 'fact',
    block: 'facts',
    text: 'My allotment is behind the old tram depot (home, current since 2026-03-02)',
    sourceMessageIds: [],
    ...UNRANKED,
    meta: { factId: 'a', slot: 'home', conversationId: null, content: 'My allotment is behind the old tram depot', related: true },
  }),
  numbered(2, {
    key: 'episode:b',
    kind: 'episode',
    block: 'episodes',
    text: '(2026-05-01) User: 我每周三晚上去游泳馆练蝶泳。 / Assistant: 听起来很不错。',
    sourceMessageIds: [],
    ...UNRANKED,
    meta: { conversationId: 'c', at: '2026-05-01T00:00:00.000Z' },
  }),
  numbered(3, {
    key: 'summary:c@v2',
    kind: 'summary',
    block: 'summary',
    text: '- User: The boat needs new varnish before the spring launch.\n- Assistant: Noted.',
    sourceMessageIds: [],
    meta: { version: 2, coveredMessageCount: 4, updatedBy: 'summariser' },
  }),
];

describe('repeatedKeys', () => {
  it('links a reply to each item whose sentence it repeats without a citation, in either language', () => {
    const reply =
      'You mentioned that my allotment is behind the old tram depot, and 我每周三晚上去游泳馆练蝶泳. Also: the boat needs new varnish before the spring launch!';
    expect(citedKeys(reply, items)).toEqual([]);
    expect(repeatedKeys(reply, items)).toEqual(['fact:a', 'episode:b', 'summary:c@v2']);
  });

  it('links nothing for a reply that shares words but no sentence', () => {
    expect(repeatedKeys('The tram depot is old, and swimming on Wednesdays is fun; spring is near.', items)).toEqual([]);
  });
});
