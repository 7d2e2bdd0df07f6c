import { expect, type Locator } from '@playwright/test';
import { AppPage } from './app-page';
import type { MemoryApi } from './memory-api';

/**
 * The chat: its conversations, composer and messages. The e2e server runs the built-in offline model
 * with 60 ms between words (~2.5 s per reply).
 */
export class ChatPage extends AppPage {
  get messages() {
    return this.page.getByTestId('message');
  }

  get userMessages() {
    return this.page.locator('[data-testid="message"][data-role="user"]');
  }

  get assistantMessages() {
    return this.page.locator('[data-testid="message"][data-role="assistant"]');
  }

  /** Opens the app and starts a new conversation from the sidebar; returns its id. */
  async newConversation(): Promise<string> {
    await this.page.goto('/');
    await this.waitForHydration();
    // Home may have opened the latest conversation already: wait for another one, empty.
    const opened = this.page.url();
    await this.page.getByTestId('new-conversation').click();
    await this.page.waitForURL((url) => /\/c\/[0-9a-f-]{36}$/.test(url.pathname) && url.href !== opened);
    await expect(this.page.getByTestId('composer')).toBeVisible();
    await expect(this.messages).toHaveCount(0);
    return this.page.url().split('/c/')[1];
  }

  async send(text: string) {
    await this.page.getByTestId('composer').fill(text);
    await this.page.getByTestId('send').click();
  }

  /** Sends a message and waits for its reply to complete. */
  async exchange(text: string) {
    const before = await this.assistantMessages.count();
    await this.send(text);
    await expect(this.assistantMessages).toHaveCount(before + 1);
    await expect(this.assistantMessages.last()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  }

  /**
   * A new conversation where a fact is learned, then a question the offline model answers by quoting
   * it: the reply, and the [n] it cites the fact by (undefined when it does not).
   */
  async askAboutALearnedFact(memory: MemoryApi) {
    const conversationId = await this.newConversation();
    await this.exchange('My name is Ada and I live in Lisbon.');
    const fact = await memory.waitForFact('Lisbon');
    await this.exchange('Where do I live?');
    const reply = this.assistantMessages.nth(1);
    const n = (await textIn(reply).innerText()).match(/I live in Lisbon\.?"[^[]*\[(\d+)\]/)?.[1];
    return { conversationId, fact, reply, n };
  }
}

/** The text of one message. */
export const textIn = (message: Locator) => message.getByTestId('message-text');
