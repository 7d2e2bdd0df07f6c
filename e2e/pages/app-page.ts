import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** What every page of the app shares: hydration, the theme, and pictures of it. */
export class AppPage {
  constructor(readonly page: Page) {}

  async waitForHydration() {
    await expect(this.page.locator('body')).toHaveAttribute('data-hydrated', 'true');
  }

  /** Switches to the dark theme and waits until the page is painted in it. */
  async switchToDarkTheme() {
    await this.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => this.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(14, 16, 20)');
  }

  /** A screenshot of the viewport, with the mouse out of the way, saved as e2e/artifacts/<name>.png. */
  async screenshot(name: string) {
    const file = artifactPath(`${name}.png`);
    await this.page.mouse.move(0, 0);
    await this.page.screenshot({ path: file, fullPage: false });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  }
}

/** Screenshots go to e2e/artifacts/ (not committed). */
export function artifactPath(file: string): string {
  const dir = path.join(import.meta.dirname, '..', 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, file);
}
