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

// The offline model's plain, short replies: an acknowledgement, an answer quoting memory with its [n], and one sentence when nothing answers.
test('the offline replies, light, dark and on a phone', async ({ page, app, chat, memory }) => {
  await chat.newConversation();
  await chat.exchange('Our dog is a grey whippet called Pixel.');
  await memory.waitForFact('Pixel');
  await chat.exchange('What is our dog called?');
  await chat.exchange('Which dentist do I go to?');
  await expect(chat.assistantMessages).toHaveCount(3);
  await app.screenshot('offline-replies-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('offline-replies-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await app.screenshot('offline-replies-phone');
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
