import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Correcting memory from the inspector: a deleted fact leaves every later context, the chat marks
// what was forgotten, and older replies keep their inspector with the deleted text redacted.
// "Forget everything" removes what its dialog said it would. Every test gets a fresh guest; the
// server runs the built-in offline model with 60 ms between words (~2.5 s per reply).

const SAID = 'I prefer coffee over tea, always black. My cat is called Miso.';
/** Words of the statement that is deleted: none of them may appear in a later context. */
const GONE = ['coffee', 'always black'];

async function storedRecord(page: Page, messageId: string): Promise<Record<string, unknown>> {
  const response = await page.request.get(`/api/messages/${messageId}/context`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { context: Record<string, unknown> }).context;
}

test('deleting a fact: the next reply has no trace of it, an older reply shows it redacted, the chat marks it forgotten', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  test.setTimeout(120_000);
  const conversationId = await chat.newConversation();

  await chat.exchange(SAID);
  const coffee = await memory.waitForFact('coffee');
  await memory.waitForFact('Miso');

  // A reply whose context recalls the fact.
  await chat.exchange('What do I like to drink?');
  const older = chat.assistantMessages.nth(1);
  const olderId = (await older.getAttribute('data-message-id'))!;
  await expect(inspector.root).toHaveAttribute('data-message-id', olderId);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  const recalledFact = inspector.root.locator(`[data-testid="recalled-item"][data-key="fact:${coffee.id}"]`);
  await expect(recalledFact).toContainText('coffee');
  await expect(recalledFact).toHaveAttribute('data-kept', 'true');
  await expect(inspector.root.getByTestId('redacted-item')).toHaveCount(0);
  await expect(inspector.root.getByTestId('record-redacted')).toHaveCount(0);

  // Delete it in the Memory view: the dialog says what happens, the result what happened.
  await inspector.root.getByTestId('tab-memory').click();
  const factsView = inspector.root.getByTestId('facts');
  const row = factsView.locator(`[data-testid="fact"][data-fact-id="${coffee.id}"]`);
  await inspector.waitForFactRow(factsView, row);
  await row.getByTestId('fact-delete').click();
  const dialog = page.getByTestId('fact-delete-dialog');
  await expect(dialog).toContainText('stops recalling it');
  await expect(dialog).toContainText('marked as forgotten');
  await expect(dialog).toContainText('shown as redacted');
  const deleted = page.waitForResponse((r) => r.url().includes(`/api/facts/${coffee.id}`) && r.request().method() === 'DELETE');
  await page.getByTestId('fact-delete-dialog-confirm').click();
  const outcome = (await (await deleted).json()) as { messagesMarked: number; recordsRedacted: number };
  expect(outcome.messagesMarked).toBeGreaterThan(0);
  expect(outcome.recordsRedacted).toBeGreaterThan(0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  await expect(factsView.getByTestId('fact-delete-result')).toHaveText(
    new RegExp(
      `^Forgotten\\. ${plural(outcome.messagesMarked, 'message')} marked, ${plural(outcome.recordsRedacted, 'inspector record')} redacted\\.`,
    ),
  );
  await expect(row).toHaveCount(0);
  await expect(factsView.getByTestId('fact').filter({ hasText: 'Miso' })).toHaveCount(1);
  await expect(chat.userMessages.first().getByTestId('forgotten-part')).toBeVisible();
  await app.screenshot('corrections-fact-deleted');

  // The chat re-read its messages without a reload: the statement is struck through, the rest is not.
  const question = chat.userMessages.first();
  const forgotten = question.getByTestId('forgotten-part');
  await expect(forgotten).toHaveCount(1);
  await expect(forgotten).toContainText('coffee over tea');
  await expect(forgotten).not.toContainText('Miso');
  await expect(forgotten).toHaveAttribute('title', 'memlens forgot this; it is no longer sent to the model');
  await expect(question.getByTestId('message-text')).toContainText('My cat is called Miso.');
  const stored = await memory.storedMessages(conversationId);
  const marked = stored.filter((m) => m.marks.some((mark) => mark.kind === 'forgotten'));
  expect(marked.length).toBe(outcome.messagesMarked);
  // A reply with a forgotten part says so under it.
  for (const message of marked.filter((m) => m.role === 'assistant')) {
    await expect(page.locator(`[data-testid="message"][data-message-id="${message.id}"]`).getByTestId('message-marks-note')).toBeVisible();
  }

  // The next reply: nothing of the deleted statement anywhere in its context.
  await inspector.root.getByTestId('tab-turn').click();
  await chat.exchange('What is my cat called?');
  const latest = chat.assistantMessages.last();
  const latestId = (await latest.getAttribute('data-message-id'))!;
  await expect(inspector.root).toHaveAttribute('data-message-id', latestId);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await expect(inspector.root.getByTestId('recalled-item').filter({ hasText: 'Miso' }).first()).toBeVisible();
  await inspector.root.getByTestId('messages-toggle').click();
  await expect(inspector.root.getByTestId('sent-message').last()).toContainText('What is my cat called?');
  const shown = await inspector.root.getByTestId('turn-view').innerText();
  for (const words of GONE) expect(shown.toLowerCase()).not.toContain(words);
  const latestRecord = JSON.stringify(await storedRecord(page, latestId)).toLowerCase();
  for (const words of GONE) expect(latestRecord).not.toContain(words);
  expect(latestRecord).toContain('miso');

  // The older reply's inspector still opens, with the fact redacted (by you, because it was deleted).
  await older.hover();
  await older.getByTestId('inspect').click();
  await expect(inspector.root).toHaveAttribute('data-message-id', olderId);
  await expect(inspector.root).toHaveAttribute('data-source', 'server');
  await expect(inspector.root.getByTestId('record-redacted')).toContainText('fact deleted');
  await expect(inspector.root.getByTestId('record-redacted')).toContainText('By you');
  await expect(recalledFact).toHaveAttribute('data-redacted', 'true');
  await expect(recalledFact.getByTestId('redacted-item')).toContainText('Redacted by you');
  await expect(recalledFact.getByTestId('redacted-item')).toContainText('fact deleted');
  await expect(recalledFact.getByTestId('recalled-text')).toHaveText('[redacted]');
  // Its decisions stay: still kept, still counted.
  await expect(recalledFact).toHaveAttribute('data-kept', 'true');
  const olderShown = await inspector.root.getByTestId('turn-view').innerText();
  for (const words of GONE) expect(olderShown.toLowerCase()).not.toContain(words);

  // Screenshots: the chat with the forgotten part, the inspector with the notice and the redacted item.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await question.scrollIntoViewIfNeeded();
  await inspector.root.getByTestId('record-redacted').scrollIntoViewIfNeeded();
  await expect(forgotten).toBeInViewport();
  await expect(recalledFact.getByTestId('redacted-item')).toBeInViewport();
  await app.screenshot('corrections-light');
  await app.switchToDarkTheme();
  await app.screenshot('corrections-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // On a phone: the chat shows the mark; the inspector is a drawer that shows the redacted item.
  await page.setViewportSize({ width: 390, height: 844 });
  await question.scrollIntoViewIfNeeded();
  await expect(forgotten).toBeInViewport();
  await app.screenshot('corrections-phone-chat');
  await page.getByTestId('inspector-toggle').click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await expect(inspector.root).toHaveAttribute('data-message-id', olderId);
  await recalledFact.scrollIntoViewIfNeeded();
  await expect(recalledFact.getByTestId('redacted-item')).toBeInViewport();
  await app.screenshot('corrections-phone-inspector');

  // After a reload, the same: marks from the server, the record redacted.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await app.waitForHydration();
  await expect(chat.userMessages.first().getByTestId('forgotten-part')).toContainText('coffee over tea');
});

test('forget everything: the dialog says what is removed and what stays, and the result matches it', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  test.setTimeout(120_000);
  const conversationId = await chat.newConversation();
  await chat.exchange(SAID);
  await memory.waitForFact('Miso');
  await chat.exchange('What is my cat called?');
  const reply = chat.assistantMessages.last();
  const replyId = (await reply.getAttribute('data-message-id'))!;
  await memory.waitToSettle();
  const counts = (await (await page.request.get('/api/memory')).json()) as {
    removed: Record<string, number>;
    kept: { conversations: number; messages: number };
  };
  expect(counts.removed.facts).toBeGreaterThanOrEqual(2);
  expect(counts.kept).toEqual({ conversations: 1, messages: 4 });

  await inspector.root.getByTestId('tab-memory').click();
  await inspector.root.getByTestId('forget-everything').click();
  const dialog = page.getByTestId('forget-dialog');
  const removed = dialog.getByTestId('forget-plan-removed');
  await expect(removed).toContainText(`${counts.removed.facts} facts`);
  if (counts.removed.episodes > 0) await expect(removed).toContainText(`${counts.removed.episodes} remembered exchange`);
  await expect(dialog.getByTestId('forget-plan-kept')).toHaveText('1 conversation with 4 messages');
  await expect(dialog).toContainText('inspector records of earlier replies stay');
  const promised = await removed.innerText();
  await app.screenshot('forget-dialog');

  await page.getByTestId('forget-dialog-confirm').click();
  const result = inspector.root.getByTestId('forget-result');
  await expect(result).toContainText('Forgotten');
  await expect(result.getByTestId('forget-result-removed')).toHaveText(promised);
  await expect(result).toContainText('Kept as they are: 1 conversation with 4 messages.');
  await expect(result.getByTestId('forget-result-records')).toHaveText(/^[1-9]\d* inspector records?$/);
  await expect(result.getByTestId('forget-result-changed')).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('forget-result-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Nothing is left to remember; the chat stays; the reply's inspector still opens, its memory redacted.
  expect(await memory.facts()).toEqual([]);
  expect(Object.values(((await (await page.request.get('/api/memory')).json()) as typeof counts).removed).every((n) => n === 0)).toBe(true);
  expect(await memory.storedMessages(conversationId)).toHaveLength(4);
  await inspector.root.getByTestId('tab-turn').click();
  await expect(inspector.root).toHaveAttribute('data-message-id', replyId);
  await expect(inspector.root.getByTestId('record-redacted')).toContainText('forget everything');
  await expect(inspector.root.getByTestId('redacted-item').first()).toBeVisible();
  const record = JSON.stringify(await storedRecord(page, replyId));
  expect(record).toContain('"reason":"forget everything"');
});

test('editing a fact: the chat marks what you first said as corrected, with the new text', async ({ app, chat, inspector, memory }) => {
  await chat.newConversation();
  await chat.exchange('My favourite director is Daniel Okafor.');
  const director = await memory.waitForFact('Okafor');

  await inspector.root.getByTestId('tab-memory').click();
  const row = inspector.root.locator(`[data-testid="fact"][data-fact-id="${director.id}"]`);
  await inspector.waitForFactRow(inspector.root, row);
  await row.getByTestId('fact-edit').click();
  await row.getByTestId('fact-input').fill('My favourite director is Agnès Varda.');
  await row.getByTestId('fact-save').click();
  await expect(row.getByTestId('fact-content')).toHaveText('My favourite director is Agnès Varda.');

  // Without a reload, the statement in the chat is marked as corrected, and the correction is spelled out.
  const question = chat.userMessages.first();
  const corrected = question.getByTestId('corrected-part');
  await expect(corrected).toHaveCount(1);
  await expect(corrected).toContainText('Daniel Okafor');
  await expect(corrected).toHaveAttribute('title', 'corrected in memory: My favourite director is Agnès Varda.');
  await expect(question.getByTestId('message-corrections')).toHaveText('Corrected in memory: “My favourite director is Agnès Varda.”');
  await expect(question.getByTestId('forgotten-part')).toHaveCount(0);
  await app.screenshot('corrections-fact-edited');
});
