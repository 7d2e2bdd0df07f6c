import { afterAll, describe, expect, it } from 'vitest';
import { createConversation } from '@/db/conversations';
import { createGuestUser } from '@/db/users';
import { previewContext } from '@/lib/memory/context/preview';
import { setEnv } from '@/tests/support/app';
import { importTurns } from '@/tests/support/memory';

// EPISODE_SCOPE: which conversations' turns recall_episodes may bring back.
afterAll(() => setEnv({ EPISODE_SCOPE: undefined, EPISODES_NEW_CONVERSATION_BEST: undefined }));

async function userWithTwoConversations() {
  const user = await createGuestUser();
  const elsewhere = await importTurns(user.id, [
    ['Before my kayak club paddles the river Wye next month, how do I waterproof a phone?', 'A dry bag with a lanyard does the job.'],
    ['Which spice makes dal taste smoky?', 'Smoked paprika, or a pinch of asafoetida.'],
  ]);
  const current = await importTurns(user.id, [['My kayak has a cracked seat.', 'A marine epoxy will fix it.']]);
  const episodes = async (question: string) =>
    (await previewContext({ userId: user.id, conversationId: current }, question)).candidates
      .filter((c) => c.kind === 'episode')
      .map((c) => ({ text: c.text, conversationId: c.meta?.conversationId }));
  return { elsewhere, current, episodes };
}

describe('recall_episodes across conversations', () => {
  it("by default (related) recalls a relevant turn of another conversation, after the current conversation's", async () => {
    setEnv({ EPISODE_SCOPE: undefined });
    const { elsewhere, current, episodes } = await userWithTwoConversations();
    const found = await episodes('Which river is my kayak club paddling?');
    const other = found.findIndex((e) => e.text.includes('river Wye'));
    expect(other).toBeGreaterThan(-1);
    expect(found[other].conversationId).toBe(elsewhere);
    expect(found.slice(0, other).every((e) => e.conversationId === current)).toBe(true);
    expect(found.some((e) => e.conversationId === current)).toBe(true);
  });

  it("by default leaves out other conversations' turns that share nothing but a word with the question", async () => {
    setEnv({ EPISODE_SCOPE: undefined });
    const { elsewhere, episodes } = await userWithTwoConversations();
    const found = await episodes('Which cheap phone suits my grandmother?');
    expect(found.filter((e) => e.conversationId === elsewhere)).toEqual([]);
  });

  it('by default brings a new conversation the best few turns of other conversations, even below the bar', async () => {
    setEnv({ EPISODE_SCOPE: undefined, EPISODES_NEW_CONVERSATION_BEST: undefined });
    const user = await createGuestUser();
    const before = await importTurns(user.id, [
      ['Lately I live on flat whites, three a day.', 'That is a lot of milk foam.'],
      ['How do I fix a squeaky door hinge?', 'A drop of oil on the pin.'],
    ]);
    const fresh = await createConversation(user.id, 'new');
    const recalled = async () =>
      (await previewContext({ userId: user.id, conversationId: fresh.id }, 'What should I get at the café?')).candidates.filter(
        (c) => c.kind === 'episode',
      );
    const found = await recalled();
    const coffee = found.find((c) => c.text.includes('flat whites'));
    expect(coffee?.meta?.conversationId).toBe(before);
    expect(found.length).toBeLessThanOrEqual(5);

    setEnv({ EPISODES_NEW_CONVERSATION_BEST: '0' });
    expect((await recalled()).some((c) => c.text.includes('flat whites'))).toBe(false);
    setEnv({ EPISODES_NEW_CONVERSATION_BEST: undefined });
  });

  it('conversation keeps to the current conversation; user ranks every conversation together', async () => {
    const { elsewhere, episodes } = await userWithTwoConversations();
    setEnv({ EPISODE_SCOPE: 'conversation' });
    expect((await episodes('Which river is my kayak club paddling?')).filter((e) => e.conversationId === elsewhere)).toEqual([]);
    setEnv({ EPISODE_SCOPE: 'user' });
    expect((await episodes('Which cheap phone suits my grandmother?')).some((e) => e.conversationId === elsewhere)).toBe(true);
  });
});
