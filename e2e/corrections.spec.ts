import { expect, type Page, test } from '@playwright/test';
import {
  assistantMessages,
  exchange,
  facts,
  failOnPageErrors,
  inspectorOf,
  newConversation,
  screenshot,
  storedMessages,
  switchToDarkTheme,
  userMessages,
  waitForFact,
  waitForFactRow,
  waitForHydration,
  waitForMemoryToSettle,
} from './support';

// Correcting memory from the inspector: a deleted fact leaves every later context, the chat marks
// what was forgotten, and older replies keep their inspector with the deleted text redacted.
// "Forget everything" removes what its dialog said it would. Every test gets a fresh guest; the
// server runs the built-in offline model with 60 ms between words (~2.5 s per reply).

failOnPageErrors();

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
}) => {
  test.setTimeout(120_000);
  const conversationId = await newConversation(page);
  const inspector = inspectorOf(page);

  await exchange(page, SAID);
  const coffee = await waitForFact(page, 'coffee');
  await waitForFact(page, 'Miso');

  // A reply whose context recalls the fact.
  await exchange(page, 'What do I like to drink?');
  const older = assistantMessages(page).nth(1);
  const olderId = (await older.getAttribute('data-message-id'))!;
  await expect(inspector).toHaveAttribute('data-message-id', olderId);
  await expect(inspector).toHaveAttribute('data-status', 'complete');
  const recalledFact = inspector.locator(`[data-testid="recalled-item"][data-key="fact:${coffee.id}"]`);
  await expect(recalledFact).toContainText('coffee');
  await expect(recalledFact).toHaveAttribute('data-kept', 'true');
  await expect(inspector.getByTestId('redacted-item')).toHaveCount(0);
  await expect(inspector.getByTestId('record-redacted')).toHaveCount(0);

  // Delete it in the Memory view: the dialog says what happens, the result what happened.
  await inspector.getByTestId('tab-memory').click();
  const factsView = inspector.getByTestId('facts');
  const row = factsView.locator(`[data-testid="fact"][data-fact-id="${coffee.id}"]`);
  await waitForFactRow(factsView, row);
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
  await expect(userMessages(page).first().getByTestId('forgotten-part')).toBeVisible();
  await screenshot(page, 'corrections-fact-deleted');

  // The chat re-read its messages without a reload: the statement is struck through, the rest is not.
  const question = userMessages(page).first();
  const forgotten = question.getByTestId('forgotten-part');
  await expect(forgotten).toHaveCount(1);
  await expect(forgotten).toContainText('coffee over tea');
  await expect(forgotten).not.toContainText('Miso');
  await expect(forgotten).toHaveAttribute('title', 'memlens forgot this; it is no longer sent to the model');
  await expect(question.getByTestId('message-text')).toContainText('My cat is called Miso.');
  const stored = await storedMessages(page, conversationId);
  const marked = stored.filter((m) => m.marks.some((mark) => mark.kind === 'forgotten'));
  expect(marked.length).toBe(outcome.messagesMarked);
  // A reply with a forgotten part says so under it.
  for (const message of marked.filter((m) => m.role === 'assistant')) {
    await expect(page.locator(`[data-testid="message"][data-message-id="${message.id}"]`).getByTestId('message-marks-note')).toBeVisible();
  }

  // The next reply: nothing of the deleted statement anywhere in its context.
  await inspector.getByTestId('tab-turn').click();
  await exchange(page, 'What is my cat called?');
  const latest = assistantMessages(page).last();
  const latestId = (await latest.getAttribute('data-message-id'))!;
  await expect(inspector).toHaveAttribute('data-message-id', latestId);
  await expect(inspector).toHaveAttribute('data-status', 'complete');
  await expect(inspector.getByTestId('recalled-item').filter({ hasText: 'Miso' }).first()).toBeVisible();
  await inspector.getByTestId('messages-toggle').click();
  await expect(inspector.getByTestId('sent-message').last()).toContainText('What is my cat called?');
  const shown = await inspector.getByTestId('turn-view').innerText();
  for (const words of GONE) expect(shown.toLowerCase()).not.toContain(words);
  const latestRecord = JSON.stringify(await storedRecord(page, latestId)).toLowerCase();
  for (const words of GONE) expect(latestRecord).not.toContain(words);
  expect(latestRecord).toContain('miso');

  // The older reply's inspector still opens, with the fact redacted (by you, because it was deleted).
  await older.hover();
  await older.getByTestId('inspect').click();
  await expect(inspector).toHaveAttribute('data-message-id', olderId);
  await expect(inspector).toHaveAttribute('data-source', 'server');
  await expect(inspector.getByTestId('record-redacted')).toContainText('fact deleted');
  await expect(inspector.getByTestId('record-redacted')).toContainText('By you');
  await expect(recalledFact).toHaveAttribute('data-redacted', 'true');
  await expect(recalledFact.getByTestId('redacted-item')).toContainText('Redacted by you on');
  await expect(recalledFact.getByTestId('redacted-item')).toContainText('fact deleted');
  await expect(recalledFact.getByTestId('recalled-text')).toHaveText('[redacted]');
  // Its decisions stay: still kept, still counted.
  await expect(recalledFact).toHaveAttribute('data-kept', 'true');
  const olderShown = await inspector.getByTestId('turn-view').innerText();
  for (const words of GONE) expect(olderShown.toLowerCase()).not.toContain(words);

  // Screenshots: the chat with the forgotten part, the inspector with the notice and the redacted item.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await question.scrollIntoViewIfNeeded();
  await inspector.getByTestId('record-redacted').scrollIntoViewIfNeeded();
  await expect(forgotten).toBeInViewport();
  await expect(recalledFact.getByTestId('redacted-item')).toBeInViewport();
  await screenshot(page, 'corrections-light');
  await switchToDarkTheme(page);
  await screenshot(page, 'corrections-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // On a phone: the chat shows the mark; the inspector is a drawer that shows the redacted item.
  await page.setViewportSize({ width: 390, height: 844 });
  await question.scrollIntoViewIfNeeded();
  await expect(forgotten).toBeInViewport();
  await screenshot(page, 'corrections-phone-chat');
  await page.getByTestId('inspector-toggle').click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await expect(inspector).toHaveAttribute('data-message-id', olderId);
  await recalledFact.scrollIntoViewIfNeeded();
  await expect(recalledFact.getByTestId('redacted-item')).toBeInViewport();
  await screenshot(page, 'corrections-phone-inspector');

  // After a reload, the same: marks from the server, the record redacted.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await waitForHydration(page);
  await expect(userMessages(page).first().getByTestId('forgotten-part')).toContainText('coffee over tea');
});

test('forget everything: the dialog says what is removed and what stays, and the result matches it', async ({ page }) => {
  test.setTimeout(120_000);
  const conversationId = await newConversation(page);
  const inspector = inspectorOf(page);
  await exchange(page, SAID);
  await waitForFact(page, 'Miso');
  await exchange(page, 'What is my cat called?');
  const reply = assistantMessages(page).last();
  const replyId = (await reply.getAttribute('data-message-id'))!;
  await waitForMemoryToSettle(page);
  const counts = (await (await page.request.get('/api/memory')).json()) as {
    removed: Record<string, number>;
    kept: { conversations: number; messages: number };
  };
  expect(counts.removed.facts).toBeGreaterThanOrEqual(2);
  expect(counts.kept).toEqual({ conversations: 1, messages: 4 });

  await inspector.getByTestId('tab-memory').click();
  await inspector.getByTestId('forget-everything').click();
  const dialog = page.getByTestId('forget-dialog');
  const removed = dialog.getByTestId('forget-plan-removed');
  await expect(removed).toContainText(`${counts.removed.facts} facts`);
  if (counts.removed.episodes > 0) await expect(removed).toContainText(`${counts.removed.episodes} remembered exchange`);
  await expect(dialog.getByTestId('forget-plan-kept')).toHaveText('1 conversation with 4 messages');
  await expect(dialog).toContainText('inspector records of earlier replies stay');
  const promised = await removed.innerText();
  await screenshot(page, 'forget-dialog');

  await page.getByTestId('forget-dialog-confirm').click();
  const result = inspector.getByTestId('forget-result');
  await expect(result).toContainText('Forgotten');
  await expect(result.getByTestId('forget-result-removed')).toHaveText(promised);
  await expect(result).toContainText('Kept as they are: 1 conversation with 4 messages.');
  await expect(result.getByTestId('forget-result-records')).toHaveText(/^[1-9]\d* inspector records?$/);
  await expect(result.getByTestId('forget-result-changed')).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'forget-result-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Nothing is left to remember; the chat stays; the reply's inspector still opens, its memory redacted.
  expect(await facts(page)).toEqual([]);
  expect(Object.values(((await (await page.request.get('/api/memory')).json()) as typeof counts).removed).every((n) => n === 0)).toBe(true);
  expect(await storedMessages(page, conversationId)).toHaveLength(4);
  await inspector.getByTestId('tab-turn').click();
  await expect(inspector).toHaveAttribute('data-message-id', replyId);
  await expect(inspector.getByTestId('record-redacted')).toContainText('forget everything');
  await expect(inspector.getByTestId('redacted-item').first()).toBeVisible();
  const record = JSON.stringify(await storedRecord(page, replyId));
  expect(record).toContain('"reason":"forget everything"');
});

test('editing a fact: the chat marks what you first said as corrected, with the new text', async ({ page }) => {
  await newConversation(page);
  const inspector = inspectorOf(page);
  await exchange(page, 'My favourite director is Daniel Okafor.');
  const director = await waitForFact(page, 'Okafor');

  await inspector.getByTestId('tab-memory').click();
  const row = inspector.locator(`[data-testid="fact"][data-fact-id="${director.id}"]`);
  await waitForFactRow(inspector, row);
  await row.getByTestId('fact-edit').click();
  await row.getByTestId('fact-input').fill('My favourite director is Agnès Varda.');
  await row.getByTestId('fact-save').click();
  await expect(row.getByTestId('fact-content')).toHaveText('My favourite director is Agnès Varda.');

  // Without a reload, the statement in the chat is marked as corrected, and the correction is spelled out.
  const question = userMessages(page).first();
  const corrected = question.getByTestId('corrected-part');
  await expect(corrected).toHaveCount(1);
  await expect(corrected).toContainText('Daniel Okafor');
  await expect(corrected).toHaveAttribute('title', 'corrected in memory: My favourite director is Agnès Varda.');
  await expect(question.getByTestId('message-corrections')).toHaveText('Corrected in memory: “My favourite director is Agnès Varda.”');
  await expect(question.getByTestId('forgotten-part')).toHaveCount(0);
  await screenshot(page, 'corrections-fact-edited');
});
