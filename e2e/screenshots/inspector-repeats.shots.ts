import { expect, test } from '../fixtures';

// Pictures of the inspector for a question answered from an earlier conversation: an exchange brought
// because it was said right after the one found, and a repeat of that one not sent. Light, dark and a
// 390-pixel phone, written to e2e/artifacts/.

const FILLER = [
  ['Any tips for keeping a sourdough starter alive while I travel?', 'Feed it well, then keep it in the fridge.'],
  ['What is a good stretch after a long day at the desk?', 'Try a doorway chest stretch and slow neck rolls.'],
  ['How do I get rid of fruit flies in the kitchen?', 'A small bowl of cider vinegar with a drop of soap works.'],
  ['Which board games work well for two players?', 'Patchwork and Jaipur are both quick and clever.'],
  ['How long should I boil an egg for a runny yolk?', 'About six minutes from boiling water.'],
  ['What can I cook with leftover rice?', 'Fried rice or rice pudding are both easy.'],
  ['How often should I water a cactus?', 'Every two or three weeks in summer, less in winter.'],
  ['How do I clean a cast iron pan?', 'Hot water and a brush, then dry it and rub in a little oil.'],
];
const MOVE = 'My sister Ingrid moved to Tromsø last spring for a new job.';

test('the inspector: an exchange said just after the one found, and a repeat not sent', async ({ page, app, chat, inspector, memory }) => {
  const turns = [
    [MOVE, "That's a big move. How is she finding it?"],
    ['Her flat overlooks the fjord, and she already bought a proper winter coat.', 'A view of the fjord is worth the cold.'],
    ...FILLER.slice(0, 4),
    [MOVE, 'You mentioned it: she is settling in up north.'],
    ...FILLER.slice(4),
  ];
  await memory.importConversation({
    title: 'Family news',
    messages: turns.flatMap(([user, assistant]) => [
      { role: 'user', content: user },
      { role: 'assistant', content: assistant },
    ]),
  });
  await memory.waitToSettle();
  await chat.newConversation();
  await chat.exchange('Where did my sister Ingrid move to?');
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');

  const recalled = inspector.root.getByTestId('recalled');
  const neighbour = recalled.getByTestId('recalled-item').filter({ hasText: 'fjord' });
  await expect(neighbour).toContainText('said just after an exchange found');
  await expect(neighbour).toHaveAttribute('data-kept', 'true');
  // One of the two exchanges that say the move is sent, the other set aside as a repeat of it.
  const repeat = recalled.getByTestId('recalled-item').filter({ has: page.getByTestId('kept-badge').getByText('Said already') });
  await expect(repeat).toHaveCount(1);
  await expect(repeat).toContainText(MOVE);
  const budget = inspector.root.getByTestId('budget');
  await budget.getByTestId('budget-decisions-toggle').click();
  const repeatRow = budget.getByTestId('budget-decision').filter({ hasText: 'said already' });
  await expect(repeatRow).toHaveCount(1);

  const shoot = async (suffix: string) => {
    await neighbour.scrollIntoViewIfNeeded();
    await app.screenshot(`inspector-neighbour${suffix}`);
    await repeat.scrollIntoViewIfNeeded();
    await app.screenshot(`inspector-repeat${suffix}`);
    await repeatRow.scrollIntoViewIfNeeded();
    await app.screenshot(`inspector-repeat-budget${suffix}`);
  };
  await shoot('');
  await app.switchToDarkTheme();
  await shoot('-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('inspector-toggle').click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await shoot('-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the inspector: the summary sent without a line an exchange sent already says', async ({ page, app, chat, inspector, memory }) => {
  await page.goto('/');
  await app.waitForHydration();
  const KEY = 'I keep my spare bike key taped under the third stair.';
  const conversationId = await memory.importConversation({
    title: 'Around the house',
    messages: [[KEY, 'Good hiding place, nobody looks there.'], ...FILLER, ...FILLER.slice(0, 3)].flatMap(([user, assistant]) => [
      { role: 'user', content: user },
      { role: 'assistant', content: assistant },
    ]),
  });
  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();
  // One more exchange: its memory work writes the first summary, which quotes the key's hiding place.
  await chat.exchange('I started learning the cello this month.');
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/conversations/${conversationId}/summary`)).json()) as { summary: unknown }).summary,
      { timeout: 15_000 },
    )
    .not.toBeNull();
  await chat.exchange('Where is my spare bike key?');
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');

  const summary = inspector.root.getByTestId('recalled').locator('[data-testid="recalled-item"][data-kind="summary"]');
  await expect(summary).toHaveAttribute('data-kept', 'true');
  await expect(summary.getByTestId('summary-line-not-sent').filter({ hasText: KEY })).toHaveCount(1);
  await expect(summary.getByTestId('recalled-reason')).toContainText('not sent');

  await summary.scrollIntoViewIfNeeded();
  await app.screenshot('inspector-summary-line-not-sent');
  await app.switchToDarkTheme();
  await app.screenshot('inspector-summary-line-not-sent-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('inspector-toggle').click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await summary.scrollIntoViewIfNeeded();
  await app.screenshot('inspector-summary-line-not-sent-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});
