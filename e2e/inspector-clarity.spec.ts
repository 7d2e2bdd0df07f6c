import { expect, test, UUID } from './fixtures';
import { type ChatPage, textIn } from './pages/chat-page';
import { HeldReply } from './pages/held-reply';
import type { MemoryApi } from './pages/memory-api';

// The inspector made clearer for staff, and the quality bar around it: Esc stops a streaming
// reply, the home page's message box starts a conversation, [n] in a reply links to its item and
// the item back to the replies that cited it, sources in other conversations are links, figures
// explain themselves, and the budget and the timeline are charts. The server runs the offline
// model with 60 ms between words (~2.5 s per reply).

/** Two turns: a fact is learned, then a question the offline model answers by quoting (citing) it. */
async function citedConversation(chat: ChatPage, memory: MemoryApi) {
  const cited = await chat.askAboutALearnedFact(memory);
  expect(cited.n, 'the reply cites the fact').toBeTruthy();
  return { ...cited, n: cited.n! };
}

// Told this, the offline model answers a question about it by quoting it whole: a reply that streams for seconds.
const ALLOTMENT =
  'On my allotment this year I am growing six kinds of tomato, a row of climbing beans up hazel poles, two beds of leeks, sweet peas along the fence and a patch of borage for the bees, and the last thing I plant is garlic each October.';

test('Esc stops a streaming reply', async ({ page, chat }) => {
  // The page sees the reply's first words and no more until Esc, however fast the machine.
  const held = new HeldReply(page);
  await held.install();
  await chat.newConversation();
  await chat.exchange(ALLOTMENT);
  await held.hold('after-first-words');
  await chat.send('What am I growing on my allotment?');
  const reply = chat.assistantMessages.nth(1);
  await expect(reply).toHaveAttribute('data-status', 'streaming');
  await expect(page.getByTestId('composer-hint')).toHaveText('Esc to stop the reply');
  await expect.poll(async () => (await textIn(reply).innerText()).length).toBeGreaterThan(0);

  await page.keyboard.press('Escape');
  await expect(reply).toHaveAttribute('data-status', 'incomplete');
  await expect(reply.getByTestId('message-status')).toHaveText('Stopped');
  await expect(page.getByTestId('stop')).toHaveCount(0);
  await expect(page.getByTestId('send')).toBeVisible();

  // The server stopped too: the reply is stored incomplete, with the words written so far.
  const id = await reply.getAttribute('data-message-id');
  const shown = (await textIn(reply).innerText()).trim();
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/messages/${id}`);
      return ((await response.json()) as { message: { status: string } }).message.status;
    })
    .toBe('incomplete');
  const stored = ((await (await page.request.get(`/api/messages/${id}`)).json()) as { message: { content: string } }).message.content;
  expect(stored.length).toBeGreaterThan(0);
  expect(stored).not.toMatch(/each October\./u); // the last words of the full reply
  expect(shown.length).toBeGreaterThan(0);
  // Esc when nothing streams does nothing.
  await page.keyboard.press('Escape');
  await expect(reply).toHaveAttribute('data-status', 'incomplete');
});

test('the home page message box starts a conversation with that message', async ({ page, app, chat }) => {
  await page.goto('/');
  await app.waitForHydration();
  const box = page.getByTestId('home-composer').getByTestId('composer');
  await expect(box).toBeFocused();
  await box.fill('I am planning a trip to Kyoto in April.');
  await box.press('Enter');

  await page.waitForURL(/\/c\/[0-9a-f-]{36}$/);
  const conversationId = page.url().split('/c/')[1];
  expect(conversationId).toMatch(UUID);
  await expect(chat.userMessages).toHaveCount(1);
  await expect(textIn(chat.userMessages.first())).toHaveText('I am planning a trip to Kyoto in April.');
  await expect(chat.assistantMessages.first()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  // The conversation is titled from it and listed in the sidebar.
  await expect(page.getByTestId('conversation-title')).toContainText('Kyoto');

  // Sent once: a reload does not send it again.
  await page.reload();
  await app.waitForHydration();
  await expect(chat.userMessages).toHaveCount(1);
  const stored = (await (await page.request.get(`/api/conversations/${conversationId}/messages`)).json()) as { messages: unknown[] };
  expect(stored.messages).toHaveLength(2);
});

test('[n] in a reply opens its item in the inspector, and the item links back to the replies that cited it', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  const { fact, reply, n } = await citedConversation(chat, memory);
  const replyId = (await reply.getAttribute('data-message-id'))!;

  // Bind the inspector to the first reply, then click [n] in the second: it opens that reply at the item.
  const firstReply = chat.assistantMessages.first();
  await firstReply.hover();
  await firstReply.getByTestId('inspect').click();
  await expect(inspector.root).toHaveAttribute('data-message-id', (await firstReply.getAttribute('data-message-id'))!);
  const cite = reply.locator(`[data-testid="cite-link"][data-n="${n}"]`).first();
  await expect(cite).toHaveText(`[${n}]`);
  await cite.click();
  await expect(inspector.root).toHaveAttribute('data-message-id', replyId);
  const item = inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${fact.id}"]`);
  await expect(item).toHaveAttribute('data-focused', 'true');
  await expect(item).toHaveAttribute('data-n', n);
  await expect(item).toBeInViewport();

  // And back: the item names the reply that cited it; a click flashes the [n] in the reply.
  const back = item.locator(`[data-testid="cited-by-reply"][data-message-id="${replyId}"]`);
  await expect(back).toContainText(`this reply [${n}]`);
  await back.click();
  await expect(cite).toHaveAttribute('data-flash', 'true');

  // A third reply cites the fact too. Its inspector finds the other replies that cited the same fact.
  await chat.exchange('Tell me again where I live?');
  const third = chat.assistantMessages.nth(2);
  await expect(inspector.root).toHaveAttribute('data-message-id', (await third.getAttribute('data-message-id'))!);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await inspector.root.getByTestId('find-citing-replies').click();
  await expect(inspector.root.getByTestId('citing-status')).toContainText('other replies');
  const thirdItem = inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${fact.id}"]`);
  const toSecond = thirdItem.locator(`[data-testid="cited-by-reply"][data-message-id="${replyId}"]`);
  await expect(toSecond).toContainText(`reply 2 [${n}]`);
  await toSecond.click();
  await expect(inspector.root).toHaveAttribute('data-message-id', replyId);
  await expect(inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${fact.id}"]`)).toHaveAttribute('data-focused', 'true');

  // After a reload the record comes from the server; [n] still finds its item.
  await page.reload();
  await app.waitForHydration();
  await expect(inspector.root).toHaveAttribute('data-source', 'server');
  await chat.assistantMessages.nth(1).locator(`[data-testid="cite-link"][data-n="${n}"]`).first().click();
  await expect(inspector.root).toHaveAttribute('data-message-id', replyId);
  await expect(inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${fact.id}"]`)).toHaveAttribute('data-focused', 'true');
  await expect(inspector.root.getByTestId('record-source')).toHaveText('stored');
});

test('figures explain themselves: tokens per message add up, usage beside our count, time to first token, charts', async ({
  page,
  chat,
  inspector,
  memory,
}) => {
  const { reply } = await citedConversation(chat, memory);
  await expect(inspector.root).toHaveAttribute('data-message-id', (await reply.getAttribute('data-message-id'))!);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  const total = Number(await inspector.root.getByTestId('budget-total').getAttribute('data-total'));

  // Help where the figures stand.
  const recalled = inspector.root.getByTestId('recalled');
  await expect(recalled.getByTestId('recalled-help')).toBeHidden();
  await recalled.getByTestId('recalled-help-toggle').click();
  await expect(recalled.getByTestId('recalled-help')).toBeVisible();
  await expect(recalled.getByTestId('recalled-help')).toContainText('reciprocal rank fusion');
  await inspector.root.getByTestId('top-k-help-toggle').click();
  await expect(inspector.root.getByTestId('top-k-help')).toContainText('top k');
  await inspector.root.getByTestId('record-source-help-toggle').click();
  await expect(inspector.root.getByTestId('record-source-help')).toContainText('stored');
  await expect(inspector.root.getByTestId('record-source')).toHaveText('live');

  // Charts: the budget per block and the timeline, drawn by the charting library.
  const budgetChart = inspector.root.getByTestId('budget-chart');
  await expect(budgetChart.locator('svg.recharts-surface')).toHaveCount(1);
  await expect.poll(() => budgetChart.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(2);
  const timeline = inspector.root.getByTestId('timeline-chart');
  await expect(timeline.locator('svg.recharts-surface')).toHaveCount(1);
  await expect(timeline).toHaveAttribute('aria-label', /generate .* first token after/);

  // Time to first token, recorded server-side.
  const firstToken = inspector.root.getByTestId('timing-first-token');
  const ms = Number(await firstToken.getAttribute('data-ms'));
  expect(ms).toBeGreaterThanOrEqual(0);
  const generate = await inspector.root.locator('[data-testid="timing-step"][data-step="generate"] td').last().innerText();
  expect(ms).toBeLessThan(Number(generate.replace(/[^\d.]/g, '')));

  // The provider's usage beside our count.
  const usage = inspector.root.getByTestId('usage-compare');
  await expect(usage).toHaveAttribute('data-ours', String(total));
  expect(Number(await usage.getAttribute('data-provider'))).toBeGreaterThan(0);
  await inspector.root.getByTestId('usage-why-toggle').click();
  await expect(inspector.root.getByTestId('usage-why')).toContainText('chat framing');
  await expect(inspector.root.getByTestId('usage-why')).toContainText('Offline model');

  // Messages sent: tokens per message, adding up to the budget's total; the earlier reply without its [n].
  const sent = inspector.root.getByTestId('messages');
  await sent.getByTestId('messages-toggle').click();
  const perMessage = await sent
    .getByTestId('sent-message')
    .evaluateAll((items) => items.map((el) => Number(el.getAttribute('data-tokens'))));
  expect(perMessage.every((t) => t > 0)).toBe(true);
  expect(perMessage.reduce((a, b) => a + b, 0) + 3).toBe(total);
  await expect(sent.getByTestId('messages-total')).toHaveAttribute('data-adds-up', 'true');
  await expect(sent.getByTestId('sent-message-tokens').first()).toHaveText(/^[\d,]+ tokens$/);
  await expect(sent).not.toContainText(' chars');

  // A third turn: the second reply is sent again without its [n], while the chat still shows it.
  await chat.exchange('And what is my name?');
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  const again = inspector.root.getByTestId('messages');
  if ((await again.getAttribute('data-open')) !== 'true') await again.getByTestId('messages-toggle').click();
  const replyId = (await reply.getAttribute('data-message-id'))!;
  const earlier = again
    .locator('[data-testid="sent-message"][data-role="assistant"]')
    .filter({ has: page.locator(`[data-testid="source"][data-message-id="${replyId}"]`) });
  await expect(earlier).toHaveCount(1);
  await expect(earlier).toContainText('I live in Lisbon');
  await expect(earlier).not.toContainText(/\[\d+\]/);
  await expect(earlier).toContainText('[n] removed');
  await expect(textIn(reply)).toContainText(/I live in Lisbon\.?"[^[]*\[\d+\]/);
});

test('a source in another conversation is a link that opens it there', async ({ page, chat, inspector, memory }) => {
  // The flash lasts a moment: which messages were flashed is noted as it happens, however slow the test.
  await page.addInitScript(() => {
    const flashed: string[] = [];
    (window as unknown as { flashed: string[] }).flashed = flashed;
    new MutationObserver((changes) => {
      for (const change of changes)
        if (change.target instanceof HTMLElement && change.target.dataset.flash === 'true')
          flashed.push(change.target.dataset.messageId ?? '');
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-flash'] });
  });
  const first = await chat.newConversation();
  await chat.exchange('My name is Ada and I live in Lisbon.');
  const fact = await memory.waitForFact('Lisbon');
  const sourceId = (await chat.userMessages.first().getAttribute('data-message-id'))!;

  await page.getByTestId('new-conversation').click();
  await page.waitForURL((url) => /\/c\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(first));
  await chat.exchange('Where do I live?');
  const item = inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${fact.id}"]`);
  const link = item.locator(`a[data-testid="source"][data-message-id="${sourceId}"]`);
  await expect(link).toHaveAttribute('href', `/c/${first}#message-${sourceId}`);
  // Named by that conversation's title and date, its id in the title only.
  await expect(link).toContainText(/^“.+” · /u);
  await expect(link).not.toContainText(sourceId.slice(0, 8));
  await expect(link).toHaveAttribute('title', new RegExp(sourceId));
  await link.click();
  await page.waitForURL((url) => url.pathname === `/c/${first}`);
  const source = page.locator(`[data-testid="message"][data-message-id="${sourceId}"]`);
  await expect(source).toBeInViewport();
  await expect.poll(() => page.evaluate(() => (window as unknown as { flashed: string[] }).flashed)).toContain(sourceId);
});

test("[n] opens the cited item on a phone too, in the inspector's drawer; pictures light, dark and phone", async ({
  page,
  app,
  inspector,
  chat,
  memory,
}) => {
  const { fact, reply, n } = await citedConversation(chat, memory);
  await reply.locator(`[data-testid="cite-link"][data-n="${n}"]`).first().click();
  const item = inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${fact.id}"]`);
  await expect(item).toHaveAttribute('data-focused', 'true');
  await expect(item).toBeInViewport();
  await app.screenshot('inspector-clarity');

  // Dark: the budget per block, further down.
  await page.emulateMedia({ colorScheme: 'dark' });
  await inspector.root.getByTestId('budget-chart').scrollIntoViewIfNeeded();
  await app.screenshot('inspector-clarity-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Phone: [n] opens the inspector's drawer at the cited item.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('#inspector-panel')).toBeHidden();
  await reply.locator(`[data-testid="cite-link"][data-n="${n}"]`).first().click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await expect(item).toHaveAttribute('data-focused', 'true');
  await expect(item).toBeInViewport();
  await app.screenshot('inspector-clarity-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});
