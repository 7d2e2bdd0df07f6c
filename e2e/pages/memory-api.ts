import { expect, type Page } from '@playwright/test';

/** A listed item: the facts one statement gave (`ids`, one per kind in `kinds`), `id` the newest changed. */
export type FactRow = { id: string; ids: string[]; kinds: string[]; content: string; status: string };

export type StoredMessage = {
  id: string;
  role: string;
  content: string;
  status: string;
  error: string | null;
  replyTo: string | null;
  marks: Array<{ start: number; end: number; kind: string }>;
};

/** The signed-in user's memory and conversations, read through the app's API with the page's session. */
export class MemoryApi {
  constructor(readonly page: Page) {}

  async facts(status?: string): Promise<FactRow[]> {
    const response = await this.page.request.get(`/api/facts${status ? `?status=${status}` : ''}`);
    expect(response.ok()).toBe(true);
    return ((await response.json()) as { facts: FactRow[] }).facts;
  }

  /** Fact extraction runs as post-turn work right after a reply: waits for the fact to exist. */
  async waitForFact(needle: string): Promise<FactRow> {
    await expect
      .poll(async () => (await this.facts('active')).some((f) => f.content.includes(needle)), {
        timeout: 15_000,
        intervals: [250, 500, 1_000],
      })
      .toBe(true);
    return (await this.facts('active')).find((f) => f.content.includes(needle))!;
  }

  /** Post-turn work (facts, episodes, summary) runs right after each reply: waits until memory stops changing. */
  async waitToSettle() {
    let previous = '';
    await expect
      .poll(
        async () => {
          const now = JSON.stringify(await (await this.page.request.get('/api/memory')).json());
          const settled = now === previous;
          previous = now;
          return settled;
        },
        { timeout: 20_000, intervals: [750] },
      )
      .toBe(true);
  }

  /** A conversation's messages as the API stores them. */
  async storedMessages(conversationId: string): Promise<StoredMessage[]> {
    const response = await this.page.request.get(`/api/conversations/${conversationId}/messages`);
    expect(response.ok()).toBe(true);
    return ((await response.json()) as { messages: StoredMessage[] }).messages;
  }

  /** POST /api/import, then waits for the worker to finish it; returns the conversation's id. */
  async importConversation(data: { title?: string; messages: Array<{ role: string; content: string }> }): Promise<string> {
    const queued = await this.page.request.post('/api/import', { data });
    expect(queued.status()).toBe(202);
    const { id } = ((await queued.json()) as { import: { id: string } }).import;
    let conversationId: string | null = null;
    await expect
      .poll(
        async () => {
          const view = (
            (await (await this.page.request.get(`/api/import/${id}`)).json()) as {
              import: { status: string; conversationId: string | null };
            }
          ).import;
          conversationId = view.conversationId;
          return view.status;
        },
        { timeout: 30_000 },
      )
      .toBe('done');
    return conversationId!;
  }
}
