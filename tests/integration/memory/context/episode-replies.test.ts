import { describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { createGuestUser } from '@/db/users';
import { importConversation } from '@/lib/import';
import { previewContext } from '@/lib/memory/context/preview';
import { fillerTurns } from '@/tests/support/memory';

// Every reply is findable later, including one that follows another reply with no question between.
describe('episodes of replies', () => {
  it('indexes a reply that follows another reply as an episode of its own, and recalls it', async () => {
    const user = await createGuestUser();
    const { conversationId } = await importConversation(user.id, {
      messages: [
        { role: 'user', content: 'Any plans this weekend?' },
        { role: 'assistant', content: 'Mostly resting.' },
        { role: 'assistant', content: 'Oh, and on Sunday I volunteered at the lighthouse museum gift shop.' },
        ...fillerTurns(15).flatMap(([q, a]) => [
          { role: 'user' as const, content: q },
          { role: 'assistant' as const, content: a },
        ]),
      ],
    });
    const rows = await getSql()`select content from episodes where user_id = ${user.id} and content like '%lighthouse%'`;
    expect(rows.map((r) => r.content)).toEqual(['Assistant: Oh, and on Sunday I volunteered at the lighthouse museum gift shop.']);

    const state = await previewContext({ userId: user.id, conversationId }, 'Where did the volunteering happen?');
    // Recalled; the budget may then set it aside for the summary that quotes it.
    expect(state.candidates.some((item) => item.kind === 'episode' && item.text.includes('lighthouse museum'))).toBe(true);
  });
});
