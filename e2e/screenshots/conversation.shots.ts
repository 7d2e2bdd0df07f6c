import { expect, test } from '../fixtures';

// Pictures for the docs, not tests: `npm run screenshots` writes them to e2e/artifacts/ (the specs
// take their own pictures as they go). What they show is asserted by the specs.

test('a conversation', async ({ app, chat }) => {
  await chat.newConversation();
  await chat.exchange('My favourite colour is **teal** and I live in Lisbon.');
  await chat.exchange('What is my favourite colour?');
  await chat.exchange('Where do I live?');
  await app.screenshot('chat-page');
});

test('a conversation with the inspector open', async ({ app, chat, inspector, memory }) => {
  await chat.askAboutALearnedFact(memory);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await expect(inspector.root.locator('[data-testid="recalled-item"][data-kind="fact"]').filter({ hasText: 'Lisbon' })).toHaveAttribute(
    'data-cited',
    'true',
  );
  await app.screenshot('inspector');
});
