import { expect, test, UUID } from './fixtures';
import { textIn } from './pages/chat-page';
import { HeldReply } from './pages/held-reply';
import type { InspectorPanel } from './pages/inspector-panel';
import type { FactRow } from './pages/memory-api';

// The inspector: the context of each reply (live while it streams, stored after a reload), the
// conversation summary and the facts memlens keeps. Every test gets a fresh guest; the server runs
// the built-in offline model with 60 ms between words (~2.5 s per reply).

/** What the panel shows for a reply, read at one instant. */
async function readPanel(inspector: InspectorPanel) {
  const lisbon = inspector.root.locator('[data-testid="recalled-item"][data-kind="fact"]').filter({ hasText: 'Lisbon' });
  return {
    messageId: await inspector.root.getAttribute('data-message-id'),
    status: await inspector.root.getAttribute('data-status'),
    query: (await inspector.root.getByTestId('retrieval-query').innerText()).trim(),
    question: (await inspector.root.getByTestId('retrieval-question').innerText()).trim(),
    lisbonKey: await lisbon.getAttribute('data-key'),
    lisbonKept: await lisbon.getAttribute('data-kept'),
    lisbonCited: await lisbon.getAttribute('data-cited'),
    total: Number(await inspector.root.getByTestId('budget-total').getAttribute('data-total')),
    budget: Number(await inspector.root.getByTestId('budget-total').getAttribute('data-budget')),
  };
}

test('the inspector fills while the reply streams, shows what was recalled, kept, cited and sent, and reloads from the API', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  const held = new HeldReply(page);
  await held.install();
  await chat.newConversation();
  await expect(inspector.root).toBeVisible();
  await expect(page.getByTestId('inspector-empty')).toBeVisible();

  await chat.exchange('My name is Ada and I live in Lisbon.');
  const firstReply = chat.assistantMessages.first();
  const firstId = await firstReply.getAttribute('data-message-id');
  await expect(inspector.root).toHaveAttribute('data-message-id', firstId!);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  const fact = await memory.waitForFact('Lisbon');

  // The second question: the panel binds to the new reply and fills from the streamed record
  // before the reply's text is done (held after its first words, however fast the machine reads it).
  // Read both at the same instant.
  await held.hold('after-first-words');
  await chat.send('Where do I live?');
  const live = await page
    .waitForFunction(
      () => {
        const replies = document.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="assistant"]');
        const panel = document.querySelector<HTMLElement>('[data-testid="inspector"]');
        const reply = replies[1];
        if (!reply || !panel || panel.dataset.messageId !== reply.dataset.messageId || !panel.dataset.status) return null;
        return {
          replyId: reply.dataset.messageId ?? '',
          replyStatus: reply.dataset.status,
          replyText: reply.querySelector('[data-testid="message-text"]')?.textContent ?? '',
          panelStatus: panel.dataset.status,
          source: panel.dataset.source,
          query: panel.querySelector('[data-testid="retrieval-query"]')?.textContent ?? null,
        };
      },
      null,
      { polling: 'raf', timeout: 10_000 },
    )
    .then((handle) => handle.jsonValue());
  expect(live!.replyId).toMatch(UUID);
  expect(live!.replyStatus).toBe('streaming');
  expect(live!.panelStatus).toBe('streaming');
  expect(live!.source).toBe('stream');
  expect(live!.query).toContain('live');
  await held.release();
  const reply = chat.assistantMessages.nth(1);
  await expect(inspector.root.getByTestId('turn-status')).toHaveText(/Streaming|Complete/);

  // The final record replaces the first one when the reply ends.
  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await expect(inspector.root.getByTestId('turn-status')).toHaveText('Complete');
  const replyText = await textIn(reply).innerText();
  expect(live!.replyText.length).toBeLessThan(replyText.length);

  // Retrieval.
  const retrieval = inspector.root.getByTestId('retrieval');
  await expect(retrieval).toBeVisible();
  await expect(retrieval.getByTestId('retrieval-question')).toHaveText('Where do I live?');
  await expect(retrieval.getByTestId('rewritten-badge')).toBeVisible();
  await expect(retrieval.getByTestId('cache-badge')).toBeVisible();
  await expect(retrieval.getByTestId('retrieval-reason')).not.toBeEmpty();

  // Recalled: the Lisbon fact, kept, numbered, and cited by the reply (which quotes its line).
  const recalled = inspector.root.getByTestId('recalled');
  const lisbon = recalled.locator('[data-testid="recalled-item"][data-kind="fact"]').filter({ hasText: 'Lisbon' });
  await expect(lisbon).toHaveAttribute('data-key', `fact:${fact.id}`);
  await expect(lisbon).toHaveAttribute('data-kind', 'fact');
  await expect(lisbon).toHaveAttribute('data-kept', 'true');
  await expect(lisbon).toHaveAttribute('data-cited', 'true');
  await expect(lisbon.getByTestId('cited-badge')).toBeVisible();
  await expect(lisbon.getByTestId('kept-badge')).toHaveText('Sent');
  const number = (await lisbon.innerText()).match(/\[(\d+)\]/)?.[1];
  expect(number).toBeTruthy();
  expect(replyText).toMatch(new RegExp(`I live in Lisbon\\.?"[^[]*\\[${number}\\]`));

  // Its source is the first question: a click scrolls the chat to it.
  const firstQuestion = chat.userMessages.first();
  const source = lisbon.getByTestId('source').first();
  await expect(source).toHaveAttribute('data-message-id', (await firstQuestion.getAttribute('data-message-id'))!);
  await source.click();
  await expect(firstQuestion).toHaveAttribute('data-flash', 'true');
  await expect(firstQuestion).toBeInViewport();

  // Budget: the total is within the budget, split by block, with every decision listed.
  const budget = inspector.root.getByTestId('budget');
  const total = Number(await budget.getByTestId('budget-total').getAttribute('data-total'));
  const limit = Number(await budget.getByTestId('budget-total').getAttribute('data-budget'));
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(limit);
  const factsTokens = Number(await budget.locator('[data-testid="budget-block"][data-block="facts"]').getAttribute('data-tokens'));
  expect(factsTokens).toBeGreaterThan(0);
  await expect(budget.getByTestId('budget-limits')).toContainText('o200k_base');
  await budget.getByTestId('budget-decisions-toggle').click();
  await expect(budget.locator(`[data-testid="budget-decision"][data-key="fact:${fact.id}"]`)).toHaveAttribute('data-kept', 'true');
  await expect(budget.locator('[data-testid="budget-decision"][data-key^="message:"]').first()).toBeVisible();

  // Messages sent: collapsed at first; the system prompt comes first and lists the fact.
  const sent = inspector.root.getByTestId('messages');
  await expect(sent.getByTestId('sent-message')).toHaveCount(0);
  await sent.getByTestId('messages-toggle').click();
  const system = sent.getByTestId('sent-message').first();
  await expect(system).toHaveAttribute('data-role', 'system');
  await expect(system).toContainText('You are memlens');
  await expect(system).toContainText(`[${number}] "I live in Lisbon`);
  await expect(sent.getByTestId('sent-message').last()).toContainText('Where do I live?');

  // Timing, usage and the model.
  const timing = inspector.root.getByTestId('timing');
  await expect(timing.getByTestId('timing-step').first()).toBeVisible();
  await expect(timing.locator('[data-testid="timing-step"][data-step="generate"]')).toBeVisible();
  await expect(timing.getByTestId('timing-total')).toHaveText(/\d ms$/);
  await expect(timing.getByTestId('model-id')).toHaveText('memlens-offline');
  await expect(timing.getByTestId('model-offline')).toBeVisible();
  await expect(timing.getByTestId('usage')).toContainText(/(?<!\d)\d+ in · \d+ out/);

  const streamed = await readPanel(inspector);

  // After a reload the same record comes from the API.
  await page.reload();
  await app.waitForHydration();
  await expect(inspector.root).toHaveAttribute('data-message-id', live!.replyId);
  await expect(inspector.root).toHaveAttribute('data-source', 'server');
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  // The fact once; the first exchange may also be recalled as an episode (not sent: the recent window has it).
  await expect(inspector.root.locator('[data-testid="recalled-item"][data-kind="fact"]').filter({ hasText: 'Lisbon' })).toHaveCount(1);
  expect(await readPanel(inspector)).toEqual(streamed);

  // "Inspect" binds the panel to an earlier reply; "Latest reply" follows the newest again.
  await firstReply.hover();
  await firstReply.getByTestId('inspect').click();
  await expect(inspector.root).toHaveAttribute('data-message-id', firstId!);
  await expect(firstReply.getByTestId('inspect')).toHaveAttribute('aria-pressed', 'true');
  await expect(inspector.root.getByTestId('retrieval-question')).toHaveText('My name is Ada and I live in Lisbon.');
  await inspector.root.getByTestId('inspector-latest').click();
  await expect(inspector.root).toHaveAttribute('data-message-id', live!.replyId);
});

test('facts: listed with their source, edited with an EDIT event, deleted, and forgotten', async ({ page, chat, inspector, memory }) => {
  await chat.newConversation();
  await chat.exchange('My name is Ada and I live in Lisbon.');
  const created = await memory.waitForFact('Lisbon');

  await inspector.root.getByTestId('tab-memory').click();
  const factsView = inspector.root.getByTestId('facts');
  await expect(factsView).toBeVisible();
  const lisbon = factsView.locator(`[data-testid="fact"][data-fact-id="${created.id}"]`);
  await inspector.waitForFactRow(factsView, lisbon);
  await expect(lisbon.getByTestId('fact-content')).toHaveText('I live in Lisbon');
  await expect(lisbon).toHaveAttribute('data-status', 'active');
  await expect(lisbon).toContainText('since');
  await expect(lisbon).toContainText('this chat');
  await expect(lisbon.getByTestId('source').first()).toHaveAttribute(
    'data-message-id',
    (await chat.userMessages.first().getAttribute('data-message-id'))!,
  );

  // Edit inline.
  await lisbon.getByTestId('fact-edit').click();
  await lisbon.getByTestId('fact-input').fill('I live in Porto');
  await lisbon.getByTestId('fact-save').click();
  await expect(lisbon.getByTestId('fact-content')).toHaveText('I live in Porto');
  await expect(factsView.getByTestId('fact').filter({ hasText: 'Lisbon' })).toHaveCount(0);

  // Its history: ADD by the extractor, then the EDIT.
  await lisbon.getByTestId('fact-history-toggle').click();
  const edit = lisbon.locator('[data-testid="fact-event"][data-event="EDIT"]');
  await expect(edit).toHaveCount(1);
  await expect(edit).toContainText('I live in Lisbon');
  await expect(edit).toContainText('I live in Porto');
  await expect(edit).toContainText('by you');
  await expect(lisbon.locator('[data-testid="fact-event"][data-event="ADD"]')).toHaveCount(1);
  const stored = await page.request.get(`/api/facts/${created.id}`);
  const { fact, history } = (await stored.json()) as { fact: FactRow; history: Array<{ event: string }> };
  expect(fact.content).toBe('I live in Porto');
  expect(history.map((h) => h.event)).toContain('EDIT');

  // Delete (confirmed): it disappears, here and on the server.
  await lisbon.getByTestId('fact-delete').click();
  await page.getByTestId('fact-delete-dialog-confirm').click();
  await expect(lisbon).toHaveCount(0);
  await expect(factsView.getByTestId('fact').filter({ hasText: 'Porto' })).toHaveCount(0);
  expect((await page.request.get(`/api/facts/${created.id}`)).status()).toBe(404);
  expect((await memory.facts()).some((f) => f.id === created.id)).toBe(false);
  await factsView.getByTestId('facts-show-all').check();
  await expect(factsView.getByTestId('fact').filter({ hasText: 'Ada' })).toHaveCount(1);
  await expect(factsView.getByTestId('fact').filter({ hasText: 'Porto' })).toHaveCount(0);

  // Forget everything (confirmed): no fact is left.
  await inspector.root.getByTestId('forget-everything').click();
  await page.getByTestId('forget-dialog-confirm').click();
  await expect(inspector.root.getByTestId('forget-result')).toContainText('Forgotten');
  await expect(factsView.getByTestId('facts-empty')).toBeVisible();
  expect(await memory.facts()).toEqual([]);
});

const TRIP = [
  ['I am planning a trip to Kyoto in April.', 'Kyoto in April is lovely: the cherry blossoms peak early in the month.'],
  ['I will travel with my sister Mira.', 'Travelling with Mira sounds fun. Does she have any must-see places?'],
  ['Mira wants to see the Fushimi Inari shrine.', 'Fushimi Inari is best early in the morning, before the crowds.'],
  ['We have a budget of 3000 euros.', 'That is enough for two weeks with mid-range hotels.'],
  ['We prefer traditional ryokan stays.', 'A ryokan night or two in Kyoto is a classic choice.'],
  ['Can you suggest a day trip?', 'Nara is an easy day trip: deer park and Todai-ji temple.'],
] as const;

/**
 * Turns after the trip. The summary never covers the recent window (20 messages), so the trip's start
 * must lie before it: with 13 turns in all, the import's refreshes write exactly one version, at 26
 * messages, covering the first three turns (a version waits for 5 messages beyond the window).
 */
const LATER = Array.from({ length: 7 }, (_, i) => [`Reminder ${i + 1}: water the plants.`, `Noted, reminder ${i + 1}.`] as const);

test('summary: shown with its version, edited (a stale edit is refused), versioned and cleared', async ({
  page,
  app,
  inspector,
  memory,
}) => {
  await page.goto('/');
  await app.waitForHydration();
  // The page's guest cookie is shared with page.request.
  const conversationId = await memory.importConversation({
    title: 'Kyoto trip',
    messages: [...TRIP, ...LATER].flatMap(([q, a]) => [
      { role: 'user', content: q },
      { role: 'assistant', content: a },
    ]),
  });

  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();
  // Imported replies were never generated here, so they have no turn record.
  await expect(inspector.root.getByTestId('no-record')).toBeVisible();

  await inspector.root.getByTestId('tab-memory').click();
  const summary = inspector.root.getByTestId('summary');
  await expect(summary.getByTestId('summary-version')).toHaveText('Version 1');
  await expect(summary.getByTestId('summary-content')).toContainText('Kyoto');
  await expect(summary.getByTestId('summary-covered')).toContainText(/covers \d+ messages/);
  await expect(summary.getByTestId('summary-updated-by')).not.toBeEmpty();

  // Edit → version 2 by "you".
  const edited = '- The user plans a trip to Kyoto in April with their sister Mira.\n- Budget: 3000 euros; they like ryokans.';
  await summary.getByTestId('summary-edit').click();
  await summary.getByTestId('summary-input').fill(edited);
  await summary.getByTestId('summary-save').click();
  await expect(summary.getByTestId('summary-version')).toHaveText('Version 2');
  await expect(summary.getByTestId('summary-content')).toHaveText(edited);
  await expect(summary.getByTestId('summary-updated-by')).toContainText('you');

  // The history lists both versions, newest first, with before/after.
  await summary.getByTestId('summary-history-toggle').click();
  const versions = summary.getByTestId('summary-version-item');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toHaveAttribute('data-action', 'edit');
  await expect(versions.nth(0)).toHaveAttribute('data-version', '2');
  await expect(versions.nth(1)).toHaveAttribute('data-action', 'refresh');
  await versions.nth(0).getByText('Before / after').click();
  await expect(versions.nth(0)).toContainText('Mira');

  // A stale edit: someone else writes version 3 while this edit is open. The save is refused (409),
  // the newer version is shown and loaded, and saving again writes on top of it.
  await summary.getByTestId('summary-edit').click();
  await summary.getByTestId('summary-input').fill('- Mine: Kyoto, April, Mira.');
  const elsewhere = await page.request.put(`/api/conversations/${conversationId}/summary`, {
    data: { content: '- Written elsewhere.', version: 2 },
  });
  expect(elsewhere.ok()).toBe(true);
  await summary.getByTestId('summary-save').click();
  await expect(summary.getByTestId('summary-conflict')).toContainText('version 3');
  await expect(summary.getByTestId('summary-conflict')).toContainText('Written elsewhere');
  await expect(summary.getByTestId('summary-input')).toHaveValue('- Mine: Kyoto, April, Mira.');
  await summary.getByTestId('summary-save').click();
  await expect(summary.getByTestId('summary-version')).toHaveText('Version 4');
  await expect(summary.getByTestId('summary-content')).toHaveText('- Mine: Kyoto, April, Mira.');

  // Clear (confirmed): empty, a new version, recorded as a clear.
  await summary.getByTestId('summary-clear').click();
  await page.getByTestId('summary-clear-dialog-confirm').click();
  await expect(summary.getByTestId('summary-version')).toHaveText('Version 5');
  await expect(summary.getByTestId('summary-content')).toContainText('cleared');
  await expect(summary.getByTestId('summary-clear')).toBeDisabled();
  await expect(versions).toHaveCount(5);
  await expect(versions.nth(0)).toHaveAttribute('data-action', 'clear');

  const stored = (await (await page.request.get(`/api/conversations/${conversationId}/summary`)).json()) as {
    summary: { content: string; version: number; coveredMessageCount: number };
  };
  expect(stored.summary).toMatchObject({ content: '', version: 5, coveredMessageCount: 0 });
});

test('the inspector collapses (remembered across reloads) and is a drawer on small screens', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  await page.goto('/');
  await app.waitForHydration();
  const conversationId = await memory.importConversation({
    title: 'Short',
    messages: [
      { role: 'user', content: 'Hello there' },
      { role: 'assistant', content: 'Hi!' },
    ],
  });
  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();

  const panel = page.locator('#inspector-panel');
  const toggle = page.getByTestId('inspector-toggle');
  await expect(panel).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.getByTestId('inspector-close').click();
  await expect(panel).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await app.waitForHydration();
  await expect(panel).toBeHidden();
  // "Inspect" on a reply opens it again.
  const reply = chat.assistantMessages.first();
  await reply.hover();
  await reply.getByTestId('inspect').click();
  await expect(panel).toBeVisible();
  await expect(inspector.root).toHaveAttribute('data-message-id', (await reply.getAttribute('data-message-id'))!);

  // Small screen: a drawer, closed until asked for; Escape closes it.
  await page.setViewportSize({ width: 420, height: 800 });
  await expect(panel).toBeHidden();
  await toggle.click();
  await expect(panel).toBeVisible();
  await expect(panel).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});
