import type { Locator } from '@playwright/test';
import { expect, test, UUID } from './fixtures';
import { artifactPath } from './pages/app-page';
import { ChatPage, textIn } from './pages/chat-page';
import { MemoryApi } from './pages/memory-api';

// Every test gets a fresh browser context, hence a fresh guest session with no conversations.
// The server runs the built-in offline model with 60 ms between words. It acknowledges a statement in two
// words and answers a question by quoting what it was told: asked about a long statement, it streams for seconds.

// How the offline model answers a question nothing in its context answers (no disclaimer: the badge says it is offline).
const UNANSWERED = "Nothing you've told me answers that yet.";
const ACKNOWLEDGED = 'Got it.';
const LIGHTHOUSES =
  'Over the years I have climbed the lighthouse at Hook Head in Ireland, the striped tower at Cape Hatteras, the stone light on Île Vierge in Brittany and the slim white column at Slettnes in the far north of Norway.';
const ASK_ABOUT_LIGHTHOUSES = 'Which lighthouses have I climbed?';

/** Tells the offline model a long statement and waits until memory has taken it in, so every answer about it reads the same context. */
async function tellAboutLighthouses(chat: ChatPage, memory: MemoryApi) {
  await chat.exchange(LIGHTHOUSES);
  await expect(textIn(chat.assistantMessages.last())).toHaveText(ACKNOWLEDGED);
  await memory.waitToSettle();
}

/** Waits until the reply being streamed shows at least `chars` characters. */
async function waitForText(reply: Locator, chars: number) {
  await expect.poll(async () => (await textIn(reply).innerText()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(chars);
}

test('streams a reply, finishes it and keeps it across a reload', async ({ page, app, chat, memory }) => {
  await page.goto('/');
  await app.waitForHydration();
  // A fresh guest has nothing yet: the empty state.
  await expect(page.getByTestId('start-conversation')).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toBeVisible();

  await page.getByTestId('new-conversation').click();
  await page.waitForURL(/\/c\/[0-9a-f-]{36}$/);
  const conversationId = page.url().split('/c/')[1];

  // A question nothing answers yet gets one short sentence, with no disclaimer.
  const question = 'What is the capital of Portugal, which river runs through it to the Atlantic, and when was its great earthquake?';
  await chat.exchange(question);
  await expect(textIn(chat.userMessages.first())).toHaveText(question);
  const unanswered = chat.assistantMessages.first();
  await expect(textIn(unanswered)).toHaveText(UNANSWERED);
  const unansweredId = await unanswered.getAttribute('data-message-id');

  // Told something long, it answers a question about it by quoting it: long enough to watch it stream.
  await tellAboutLighthouses(chat, memory);
  // Every length a streaming reply's text takes, seen in the page from before the question is sent: watched
  // from the test, a busy machine can let the whole stream pass between two reads.
  await page.evaluate(() => {
    const lengths = new Set<number>();
    const observer = new MutationObserver(() => {
      for (const element of document.querySelectorAll('[data-testid="message"][data-role="assistant"][data-status="streaming"]'))
        lengths.add(element.textContent?.length ?? 0);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    Object.assign(window, { streamedLengths: lengths });
  });
  await chat.send(ASK_ABOUT_LIGHTHOUSES);
  await expect(chat.userMessages).toHaveCount(3);
  const reply = chat.assistantMessages.nth(2);
  await waitForText(reply, 1);
  const streamingId = await reply.getAttribute('data-message-id');
  expect(streamingId).toMatch(UUID);

  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  // The text grew while the reply streamed: several lengths were shown before it was complete.
  expect(await page.evaluate(() => (window as unknown as { streamedLengths: Set<number> }).streamedLengths.size)).toBeGreaterThan(2);
  const fullText = await textIn(reply).innerText();
  expect(fullText).toContain(LIGHTHOUSES.replace(/\.$/u, ''));
  expect(fullText).not.toMatch(/offline|API key|OPENAI/iu);
  await expect(page.getByTestId('offline-badge')).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toHaveText(/offline model/i);
  await expect(page.getByTestId('offline-badge')).toHaveAttribute('title', /OPENAI_API_KEY/);
  // The conversation took its title from the first question (cut at a word boundary when long).
  await expect(page.getByTestId('conversation-item').first()).toContainText(question.slice(0, 40));

  const userId = await chat.userMessages.nth(2).getAttribute('data-message-id');
  expect(userId).toMatch(UUID);

  await page.reload();
  await expect(chat.messages).toHaveCount(6);
  await expect(chat.userMessages.nth(2)).toHaveAttribute('data-message-id', userId!);
  await expect(textIn(chat.userMessages.first())).toHaveText(question);
  await expect(textIn(chat.userMessages.nth(2))).toHaveText(ASK_ABOUT_LIGHTHOUSES);
  await expect(reply).toHaveAttribute('data-message-id', streamingId!);
  await expect(reply).toHaveAttribute('data-status', 'complete');
  await expect(textIn(reply)).toHaveText(fullText);
  await expect(page.getByTestId('offline-badge')).toBeVisible();

  const stored = await memory.storedMessages(conversationId);
  expect(stored.map((m) => m.status)).toEqual(Array(6).fill('complete'));
  expect(stored[1]).toMatchObject({ id: unansweredId, content: UNANSWERED });
  expect(stored[4]).toMatchObject({ id: userId, role: 'user' });
  expect(stored[5]).toMatchObject({ id: streamingId, role: 'assistant', replyTo: userId });
  expect(stored[5].content).toContain(fullText.slice(0, 60));
});

test('Stop keeps the partial reply as incomplete, and Retry answers again', async ({ page, chat, memory }) => {
  const conversationId = await chat.newConversation();
  await tellAboutLighthouses(chat, memory);
  await chat.send(ASK_ABOUT_LIGHTHOUSES);

  const reply = chat.assistantMessages.nth(1);
  await waitForText(reply, 20);
  await page.getByTestId('stop').click();

  await expect(reply).toHaveAttribute('data-status', 'incomplete');
  await expect(reply.getByTestId('message-status')).toHaveText('Stopped');
  await expect(page.getByTestId('stop')).toHaveCount(0);
  await expect(page.getByTestId('send')).toBeVisible();
  const replyId = await reply.getAttribute('data-message-id');

  await page.reload();
  const stored = page.locator(`[data-testid="message"][data-message-id="${replyId}"]`);
  await expect(stored).toHaveAttribute('data-status', 'incomplete');
  await expect(stored.getByTestId('message-status')).toHaveText('Stopped');
  const partial = (await textIn(stored).innerText()).trim();
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.startsWith('You told me')).toBe(true);

  const rows = await memory.storedMessages(conversationId);
  expect(rows).toHaveLength(4);
  expect(rows[3]).toMatchObject({ id: replyId, role: 'assistant', status: 'incomplete' });
  expect(rows[3].content.length).toBeGreaterThan(0);

  // Retry rewrites the stopped reply in place (same id) with a complete one to the same question.
  await page.getByTestId('retry').click();
  await expect(chat.messages).toHaveCount(4);
  const retried = chat.assistantMessages.nth(1);
  await expect(retried).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  await expect(retried).toHaveAttribute('data-message-id', replyId!);
  const full = (await textIn(retried).innerText()).trim();
  expect(partial.length).toBeLessThan(full.length);
  expect(full.startsWith(partial)).toBe(true);

  // The inspector shows it as the second attempt; the stopped first attempt's record is kept.
  const attempts = page.getByTestId('inspector').getByTestId('prior-attempts');
  await expect(attempts).toHaveAttribute('data-attempt', '2');
  await expect(attempts).toContainText('Attempt 2 · 1 earlier attempt');
  await attempts.getByTestId('prior-attempts-list-toggle').click();
  const earlier = attempts.getByTestId('prior-attempt');
  await expect(earlier).toHaveCount(1);
  await expect(earlier).toHaveAttribute('data-attempt', '1');
  await expect(earlier).toHaveAttribute('data-status', 'incomplete');
  await expect(earlier).toContainText('Stopped');
  await expect(earlier).toContainText(ASK_ABOUT_LIGHTHOUSES);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifactPath('retry-attempts.png') });
});

test('closing the tab mid-stream leaves the partial reply stored as incomplete', async ({ page, context, chat, memory }) => {
  const conversationId = await chat.newConversation();
  const url = page.url();
  await tellAboutLighthouses(chat, memory);
  await chat.send(ASK_ABOUT_LIGHTHOUSES);
  const reply = chat.assistantMessages.nth(1);
  await waitForText(reply, 20);
  const replyId = await reply.getAttribute('data-message-id');
  await page.close();

  const again = await context.newPage();
  await again.goto(url);
  const stored = again.locator(`[data-testid="message"][data-message-id="${replyId}"]`);
  // The server finalises the row once it notices the disconnect: poll with reloads.
  await expect
    .poll(
      async () => {
        const status = await stored.getAttribute('data-status', { timeout: 2_000 }).catch(() => null);
        if (status !== 'incomplete') await again.reload();
        return status;
      },
      { timeout: 15_000, intervals: [500, 1_000] },
    )
    .toBe('incomplete');

  await expect(stored.getByTestId('message-status')).toHaveText('Stopped');
  const partial = (await textIn(stored).innerText()).trim();
  expect(partial.startsWith('You told me')).toBe(true);
  const rows = await new MemoryApi(again).storedMessages(conversationId);
  expect(rows).toHaveLength(4);
  expect(rows[3]).toMatchObject({ id: replyId, status: 'incomplete' });
  expect(rows[3].content.length).toBeGreaterThan(0);

  // The kept text is the start of what a full reply says: Retry shows the whole of it.
  await again.getByTestId('retry').click();
  const full = new ChatPage(again).assistantMessages.nth(1);
  await expect(full).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  const fullText = (await textIn(full).innerText()).trim();
  expect(partial.length).toBeLessThan(fullText.length);
  expect(fullText.startsWith(partial)).toBe(true);
});

test('editing the first question replaces everything after it', async ({ page, chat, memory }) => {
  const conversationId = await chat.newConversation();
  await chat.exchange('My favourite colour is teal.');
  await chat.exchange('What is my favourite colour?');
  await expect(chat.messages).toHaveCount(4);
  const firstUser = chat.userMessages.first();
  const firstId = await firstUser.getAttribute('data-message-id');
  const oldIds = await chat.messages.evaluateAll((els) => els.map((el) => el.getAttribute('data-message-id')));

  await firstUser.hover();
  await firstUser.getByTestId('edit').click();
  const edited = 'Tell me a fact about penguins';
  await page.getByTestId('edit-input').fill(edited);
  await page.getByTestId('save-edit').click();

  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.assistantMessages).toHaveCount(1);
  const reply = chat.assistantMessages.first();
  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  // Nothing of the edited-away statement answers any more.
  await expect(textIn(reply)).toHaveText(UNANSWERED);
  await expect(chat.userMessages.first()).toHaveAttribute('data-message-id', firstId!);
  await expect(textIn(chat.userMessages.first())).toHaveText(edited);
  const replyId = await reply.getAttribute('data-message-id');
  expect(oldIds).not.toContain(replyId);

  await page.reload();
  await expect(chat.messages).toHaveCount(2);
  await expect(textIn(chat.userMessages.first())).toHaveText(edited);
  await expect(chat.userMessages.first()).toHaveAttribute('data-message-id', firstId!);
  await expect(chat.assistantMessages.first()).toHaveAttribute('data-message-id', replyId!);
  await expect(chat.assistantMessages.first()).toHaveAttribute('data-status', 'complete');
  await expect(chat.userMessages.filter({ hasText: 'favourite colour' })).toHaveCount(0);

  // Stored: the edited question and the one answer to it.
  const rows = await memory.storedMessages(conversationId);
  expect(rows.map((m) => [m.id, m.role, m.status])).toEqual([
    [firstId, 'user', 'complete'],
    [replyId, 'assistant', 'complete'],
  ]);
  expect(rows[0].content).toBe(edited);
  expect(rows[1].replyTo).toBe(firstId);
});

test('bad input is refused with a visible error and nothing is stored', async ({ page, chat, memory }) => {
  const conversationId = await chat.newConversation();
  const composer = page.getByTestId('composer');

  // Blank: nothing to send.
  await composer.fill('   ');
  await expect(page.getByTestId('send')).toBeDisabled();

  // Too long: refused in the browser, with the limit shown.
  const me = await (await page.request.get('/api/me')).json();
  const limit: number = me.model.maxMessageChars;
  await composer.fill('x'.repeat(limit + 1));
  await expect(page.getByTestId('composer-error')).toBeVisible();
  await expect(page.getByTestId('composer-error')).toContainText('too long');
  await expect(page.getByTestId('send')).toBeDisabled();
  await composer.press('Enter');
  await expect(page.getByTestId('composer-error')).toBeVisible();
  await expect(chat.messages).toHaveCount(0);

  // Refused by the server: its 4xx message is shown, the optimistic message goes and the text comes back.
  await page.route('**/api/chat', async (route) => {
    const body = route.request().postDataJSON();
    body.message.text = 'y'.repeat(limit + 1);
    await route.continue({ postData: JSON.stringify(body) });
  });
  await composer.fill('a perfectly short question');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('chat-error')).toBeVisible();
  await expect(page.getByTestId('chat-error')).toContainText(`longer than the limit of ${limit} characters`);
  await expect(chat.messages).toHaveCount(0);
  await expect(composer).toHaveValue('a perfectly short question');
  await page.unroute('**/api/chat');

  await page.reload();
  await expect(page.getByTestId('composer')).toBeVisible();
  await expect(chat.messages).toHaveCount(0);
  expect(await memory.storedMessages(conversationId)).toEqual([]);
});

test("the composer counts tokens as the server does: a message under the character limit but over the model's is refused in the browser", async ({
  page,
  chat,
}) => {
  await chat.newConversation();
  const composer = page.getByTestId('composer');
  const me = await (await page.request.get('/api/me')).json();
  const { maxMessageTokens, maxMessageChars } = me.model as { maxMessageTokens: number; maxMessageChars: number };
  // One word again and again: one token each (a tokenizer never merges across words).
  const words = (tokens: number) => `the${' the'.repeat(tokens - 1)}`;
  const over = words(maxMessageTokens + 1);
  expect(over.length).toBeLessThan(maxMessageChars);
  await composer.fill(over);
  await expect(page.getByTestId('composer-error')).toContainText('too long for the model');
  await expect(page.getByTestId('token-count')).toHaveText(
    `${(maxMessageTokens + 1).toLocaleString('en-US')} / ${maxMessageTokens.toLocaleString('en-US')} tokens`,
  );
  await expect(page.getByTestId('send')).toBeDisabled();
  await composer.fill(words(maxMessageTokens));
  await expect(page.getByTestId('composer-error')).toHaveCount(0);
  await expect(page.getByTestId('send')).toBeEnabled();
});

test('a reply that fails mid-stream shows the error, and Retry answers again', async ({ page, chat, memory }) => {
  const conversationId = await chat.newConversation();
  const failure = 'The model provider is overloaded (simulated).';
  // The real turn runs on the server; the browser gets its first words, then an error chunk.
  await page.route('**/api/chat', async (route) => {
    const response = await route.fetch();
    const chunks = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)) as { type: string });
    let deltas = 0;
    const kept = chunks.filter(
      (chunk) => ['start', 'start-step', 'text-start'].includes(chunk.type) || (chunk.type === 'text-delta' && deltas++ < 3),
    );
    kept.push({ type: 'error', errorText: failure } as { type: string });
    await route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
      body: `${kept.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
    });
  });

  await chat.send('Explain how tides work');
  const reply = chat.assistantMessages.first();
  await expect(reply).toHaveAttribute('data-status', 'failed');
  await expect(reply.getByTestId('message-error')).toHaveText(failure);
  expect((await textIn(reply).innerText()).startsWith('Nothing')).toBe(true);
  const failedId = await reply.getAttribute('data-message-id');
  expect(failedId).toMatch(UUID);
  await expect(page.getByTestId('retry')).toHaveCount(1);

  await page.unroute('**/api/chat');
  await page.getByTestId('retry').click();
  await expect(chat.messages).toHaveCount(2);
  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  // Retry rewrites the failed reply in place: the same id.
  await expect(reply).toHaveAttribute('data-message-id', failedId!);
  await expect(textIn(reply)).toContainText(UNANSWERED);
  await expect(page.getByTestId('retry')).toHaveCount(0);

  await page.reload();
  await expect(chat.messages).toHaveCount(2);
  const rows = await memory.storedMessages(conversationId);
  expect(rows.map((m) => [m.role, m.status])).toEqual([
    ['user', 'complete'],
    ['assistant', 'complete'],
  ]);
});

test('conversations can be renamed, cleared and deleted', async ({ page, chat, memory }) => {
  const conversationId = await chat.newConversation();
  await chat.exchange('Remember that my cat is called Miso.');

  const item = page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`);
  await expect(item).toHaveAttribute('data-active', 'true');
  await item.hover();
  await item.getByTestId('rename-conversation').click();
  await page.getByTestId('rename-input').fill('Cat facts');
  await page.getByTestId('rename-input').press('Enter');
  await expect(item).toContainText('Cat facts');
  await expect(page.getByTestId('conversation-title')).toHaveText('Cat facts');

  await page.getByTestId('clear-conversation').click();
  await page.getByTestId('clear-dialog-confirm').click();
  await expect(chat.messages).toHaveCount(0);
  expect(await memory.storedMessages(conversationId)).toEqual([]);

  await item.hover();
  await item.getByTestId('delete-conversation').click();
  await page.getByTestId('delete-dialog-confirm').click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByTestId('start-conversation')).toBeVisible();
  const response = await page.request.get(`/api/conversations/${conversationId}`);
  expect(response.status()).toBe(404);
});
