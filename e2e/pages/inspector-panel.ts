import { expect, type Locator, type Page } from '@playwright/test';

/** The inspector beside the chat: what the model was sent for a reply, and the memory it came from. */
export class InspectorPanel {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('inspector');
  }

  /** Waits for one fact row in a facts view: the view re-reads after each turn; its refresh button covers a slow extraction. */
  async waitForFactRow(view: Locator, row: Locator) {
    await expect
      .poll(
        async () => {
          if ((await row.count()) === 0) await view.getByTestId('facts-refresh').click();
          return row.count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
  }
}
