import { expect, test } from './fixtures';

// A conversation's rolling summary as a person meets it: the inspector and /memory say when the
// first one comes and what it will cover, it then comes exactly then, holds what the user said, and
// the Clear dialog says what clearing does. The server runs with the default settings (a 20-message
// window, refreshed 5 at a time) and the built-in offline model.

/** Twelve exchanges (24 messages): the user's own words about an allotment, short replies. */
const ALLOTMENT = [
  ['I rent an allotment plot on the edge of Utrecht.', 'Lovely.'],
  ['My plot is number 41, next to the water tap.', 'Handy spot.'],
  ['This year I am growing leeks, beans and three kinds of squash.', 'A good mix.'],
  ['Which squash keeps best over winter?', 'Butternut keeps for months.'],
  ['My neighbour Anouk gives me her spare compost.', 'Kind of her.'],
  ['The slugs ate half my lettuce in June.', 'That happens.'],
  ['I water on Tuesday and Friday evenings.', 'Sounds steady.'],
  ['I want to build a small shed before October.', 'A good plan.'],
  ['What wood lasts longest outdoors?', 'Larch is a good choice.'],
  ['The allotment fee is 85 euros a year.', 'Not bad.'],
  ['I share the tools with my brother Pieter.', 'Nice.'],
  ['Next spring I will try growing asparagus.', 'It takes patience.'],
] as const;

test('a summary comes when the inspector says, covers what it says, and keeps what the user said', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  await page.goto('/');
  await app.waitForHydration();
  const conversationId = await memory.importConversation({
    title: 'Allotment',
    messages: ALLOTMENT.flatMap(([said, reply]) => [
      { role: 'user', content: said },
      { role: 'assistant', content: reply },
    ]),
  });
  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();
  await inspector.root.getByTestId('tab-memory').click();
  const summary = inspector.root.getByTestId('summary');
  await expect(summary.getByTestId('summary-content')).toHaveText(/^No summary yet/);
  await expect(summary.getByTestId('summary-covers')).toHaveText('The last 20 messages are sent as written.');
  await expect(summary.getByTestId('summary-next')).toHaveText(
    'The first summary comes after 2 more messages and will cover messages 1–6.',
  );

  // One exchange makes 26 messages: the reply's memory work writes version 1.
  await chat.exchange('I also keep two beehives at the back of the plot.');
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/conversations/${conversationId}/summary`)).json()) as { summary: unknown }).summary,
      {
        timeout: 15_000,
      },
    )
    .not.toBeNull();
  await page.reload();
  await app.waitForHydration();
  await inspector.root.getByTestId('tab-memory').click();
  await expect(summary.getByTestId('summary-version')).toHaveText('Version 1');
  await expect(summary.getByTestId('summary-covers')).toHaveText('Covers messages 1–6; the last 20 messages are sent as written.');
  await expect(summary.getByTestId('summary-next')).toHaveText(
    'The next version comes after 6 more messages and will cover messages 1–12.',
  );
  // Messages 1–6 are the first three exchanges: the user's words, the question included.
  const content = summary.getByTestId('summary-content');
  for (const [said] of ALLOTMENT.slice(0, 3)) await expect(content).toContainText(said);
  await summary.scrollIntoViewIfNeeded();
  await app.screenshot('summary-inspector');
  await app.switchToDarkTheme();
  await app.screenshot('summary-inspector-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Phone: the conversation with the inspector's summary section in its drawer.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await app.waitForHydration();
  await page.getByTestId('inspector-toggle').click();
  await inspector.root.getByTestId('tab-memory').click();
  await expect(summary.getByTestId('summary-next')).toBeVisible();
  await summary.scrollIntoViewIfNeeded();
  await app.screenshot('summary-inspector-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // /memory says the same for this conversation.
  await page.goto('/memory');
  await app.waitForHydration();
  const onMemoryPage = page.locator(`[data-testid="memory-summary"][data-conversation-id="${conversationId}"]`);
  await expect(onMemoryPage.getByTestId('summary-covers')).toHaveText('Covers messages 1–6; the last 20 messages are sent as written.');
  await expect(onMemoryPage.getByTestId('summary-next')).toHaveText(
    'The next version comes after 6 more messages and will cover messages 1–12.',
  );

  // Clearing: the dialog says later versions cover only later messages, as the staff dialog does.
  await onMemoryPage.getByTestId('summary-clear').click();
  const dialog = page.getByTestId('summary-clear-dialog');
  await expect(dialog).toContainText('later versions cover only messages written after now');
  await expect(dialog).not.toContainText('from the start');
  await page.getByTestId('summary-clear-dialog-confirm').click();
  await expect(onMemoryPage.getByTestId('summary-content')).toContainText('cleared');
  await expect(onMemoryPage.getByTestId('summary-next')).toHaveText(
    'The first summary comes after 26 more messages and will cover messages 27–32.',
  );
});
