import { expect, test } from './fixtures';

// One message or import crafted to make the text rules slow must never hold up anyone else: the
// rules run in worker threads, each text within a budget (lib/memory/rules/bounded.ts), and their
// patterns cannot backtrack (eslint-plugin-regexp in `npm run lint`). Another visitor's requests
// are answered throughout, each within 2 s, on the production build.

const NESTED_FILLER = `希望${'有帮助希望x'.repeat(27)}`;
// Of the same kinds, in other words: long runs of blanks, fillers and brackets after a lead-in the rules read.
const ATTACKS = [
  NESTED_FILLER,
  `I live in${' '.repeat(5000)}x`,
  `My name is${'\t \u00a0'.repeat(2500)}!`,
  `${'thanks, great, got it! '.repeat(300)}?`,
  `我住在${'\u3000'.repeat(6000)}。`,
  `我叫${'《'.repeat(4000)}`,
  `I used to work at ${'the '.repeat(2000)}-`,
  `Please forget that ${'"'.repeat(6000)}`,
];

test('crafted messages and an import never keep another visitor waiting', async ({ page, browser, memory }) => {
  test.setTimeout(180_000);
  const attacker = page.request;
  const victim = await browser.newContext();
  const slowest = { ms: 0, path: '' };
  let done = false;
  const watch = async () => {
    for (const path of ['/api/me', '/api/conversations']) {
      const started = performance.now();
      const response = await victim.request.get(path);
      expect(response.ok(), path).toBe(true);
      const ms = performance.now() - started;
      if (ms > slowest.ms) Object.assign(slowest, { ms, path });
    }
  };

  const attack = async () => {
    const created = await attacker.post('/api/conversations', { data: { title: 'Crafted chat' } });
    expect(created.status()).toBe(201);
    const { id } = ((await created.json()) as { conversation: { id: string } }).conversation;
    // After the first write, which made the guest: the import is theirs too.
    const imported = memory.importConversation({
      title: 'Crafted',
      messages: ATTACKS.flatMap((content) => [
        { role: 'user', content },
        { role: 'assistant', content: 'Noted.' },
      ]),
    });
    // An attacker need not read the replies (one may quote a long earlier message, word by word):
    // each is dropped once it starts. The turn's post-turn work is queued by then.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    for (const text of ATTACKS) {
      const stop = new AbortController();
      const reply = await fetch(new URL('/api/chat', test.info().project.use.baseURL), {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: new URL(test.info().project.use.baseURL!).origin },
        body: JSON.stringify({ conversationId: id, message: { text } }),
        signal: stop.signal,
      });
      expect(reply.status, text.slice(0, 20)).toBe(200);
      await reply.body!.getReader().read();
      stop.abort();
    }
    await imported;
    // The post-turn work of every message: facts, summaries, remembered exchanges.
    await memory.waitToSettle();
  };

  const watching = (async () => {
    while (!done) await watch();
  })();
  try {
    await attack();
  } finally {
    done = true;
    await watching;
    await victim.close();
  }
  test.info().annotations.push({ type: 'slowest other request', description: `${Math.round(slowest.ms)} ms (${slowest.path})` });
  console.log(`[stall] slowest other request: ${Math.round(slowest.ms)} ms (${slowest.path})`);
  expect(slowest.ms).toBeLessThan(2_000);
});
