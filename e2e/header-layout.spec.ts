import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The conversation header at every common width: the title keeps a readable width (the badge,
// the model name and the action labels condense instead), and nothing in the header runs past it
// or past the screen. With the inspector column open where the screen holds one (from 1024 px) and
// closed; a long title in Latin and in Chinese; light and dark screenshots of each width.

const WIDTHS = [320, 375, 768, 1024, 1280, 1440, 1920];
const TITLES = {
  latin: 'Planning the autumn walking trip through the Scottish Highlands with my sister and her two dogs',
  chinese: '关于明年春天和家人一起去云南大理丽江自驾旅行的详细路线规划与预算讨论记录',
};
/** The title's floor at any width (min-w-24: about ten letters or six Chinese characters)… */
const TITLE_MIN = 96;
/** …and from the tablet up, where the header always has room for a good part of it. */
const TITLE_MIN_WIDE = 160;

async function conversationTitled(page: Page, title: string): Promise<string> {
  const response = await page.request.post('/api/conversations', { data: { title } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { conversation: { id: string } }).conversation.id;
}

/** What of the header lies outside it or the screen, and the title's width. */
async function measureHeader(page: Page) {
  return page.getByTestId('conversation-title').evaluate((title) => {
    const header = title.closest('header')!;
    const box = header.getBoundingClientRect();
    const right = Math.min(box.right, document.documentElement.clientWidth);
    const outside = [...header.querySelectorAll<HTMLElement>('*')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        // Screen-reader-only text is a clipped 1-pixel box; what is not shown has no box.
        if (r.width <= 1 || r.height <= 1 || getComputedStyle(el).position === 'absolute') return false;
        return r.left < box.left - 0.5 || r.right > right + 0.5;
      })
      .map((el) => el.dataset.testid ?? `${el.tagName.toLowerCase()}.${el.className}`);
    return {
      titleWidth: title.getBoundingClientRect().width,
      headerScrolls: header.scrollWidth > header.clientWidth + 1,
      outside,
    };
  });
}

async function expectHeaderFits(page: Page, width: number, what: string) {
  const measured = await measureHeader(page);
  expect(measured.outside, `${what}: header items outside it`).toEqual([]);
  expect(measured.headerScrolls, `${what}: the header scrolls`).toBe(false);
  expect(measured.titleWidth, `${what}: title width`).toBeGreaterThanOrEqual(width >= 768 ? TITLE_MIN_WIDE : TITLE_MIN);
  return measured;
}

test('the conversation title keeps its width at every width from 320 to 1920 px', async ({ page, app }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await app.waitForHydration();
  const ids = { latin: await conversationTitled(page, TITLES.latin), chinese: await conversationTitled(page, TITLES.chinese) };
  const title = page.getByTestId('conversation-title');
  const toggle = page.getByTestId('inspector-toggle');
  const header = page.locator('header', { has: title });

  for (const [script, id] of Object.entries(ids) as Array<[keyof typeof TITLES, string]>) {
    await page.goto(`/c/${id}`);
    await app.waitForHydration();
    await expect(title).toHaveText(TITLES[script]);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const column = width >= 1024;
      // Open as a column where the screen holds one (it opens so by default, and is left open after
      // each check with it closed); below, the inspector is a drawer over the page, closed.
      await expect(toggle).toHaveAttribute('aria-expanded', column ? 'true' : 'false');
      if (column) await expect(page.locator('#inspector-panel')).toBeVisible();
      const open = await expectHeaderFits(page, width, `${script} ${width}px, inspector ${column ? 'open' : 'closed'}`);
      console.log(`${script} ${width}px inspector ${column ? 'open' : 'closed'}: title ${Math.round(open.titleWidth)} px`);
      // Every action stays reachable, by name, at every width.
      await expect(header.getByRole('button', { name: 'Clear conversation' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'Memory' })).toBeVisible();
      await expect(header.getByRole('button', { name: 'Inspector' })).toBeVisible();
      await expect(header.getByTestId('offline-badge')).toBeVisible();

      if (script === 'latin') await app.screenshot(`header-${width}`);
      else {
        await app.switchToDarkTheme();
        await app.screenshot(`header-${width}-zh-dark`);
        await page.emulateMedia({ colorScheme: 'light' });
      }

      if (column) {
        // Closed, the main column is wider: the title only gains.
        await toggle.click();
        await expect(page.locator('#inspector-panel')).toBeHidden();
        const closed = await expectHeaderFits(page, width, `${script} ${width}px, inspector closed`);
        expect(closed.titleWidth).toBeGreaterThanOrEqual(open.titleWidth - 1);
        await toggle.click();
        await expect(page.locator('#inspector-panel')).toBeVisible();
      } else {
        // Below md the sidebar is a drawer over the page: opening it leaves the header as it was.
        if (width < 768) {
          await page.getByRole('button', { name: 'Open conversations' }).click();
          await expect(page.getByTestId('new-conversation')).toBeInViewport();
          await expectHeaderFits(page, width, `${script} ${width}px, sidebar open`);
          if (script === 'latin' && width === 375) await app.screenshot('header-375-sidebar-open');
          await page.keyboard.press('Escape');
          await expect(page.getByTestId('new-conversation')).not.toBeInViewport();
        }
      }
    }
  }
});

test('the memory page header fits at the narrowest width', async ({ page, app }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto('/memory');
  await app.waitForHydration();
  await expect(page.getByTestId('conversation-title')).toHaveText('Memory');
  await expectHeaderFits(page, 320, 'memory page 320px');
});
