import { generateText } from 'ai';
import { z } from 'zod';
import { createConversation } from '@/db/conversations';
import { createGuestUser } from '@/db/users';
import { importConversation } from '@/lib/import';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import { isoTime } from '@/lib/validation';
import { share } from './rates';

/** Format `memory-scenarios/1`: conversations to import, a probe, and what its context must (not) hold. */
export const scenarioFileSchema = z.object({
  format: z.literal('memory-scenarios/1'),
  scenarios: z.array(
    z.object({
      id: z.string(),
      lang: z.string().optional(),
      about: z.string().optional(),
      /** `createdAt` says when a message was said (a conversation spread over weeks); without it, import times are used. */
      conversations: z.array(
        z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string(), createdAt: isoTime.optional() })),
      ),
      probe: z.object({ conversation: z.union([z.number().int().nonnegative(), z.literal('new')]), message: z.string() }),
      expect: z.object({
        context_contains: z.array(z.string()).optional(),
        rewrite_contains: z.array(z.string()).optional(),
        facts_absent: z.array(z.string()).optional(),
        /** Strings the context must not hold. */
        context_absent: z.array(z.string().min(1)).optional(),
        /** Strings the context must hold exactly once: a statement told several times is sent once. */
        context_once: z.array(z.string().min(1)).optional(),
        /** Strings some active fact given in the context must hold. */
        facts_present: z.array(z.string().min(1)).optional(),
        /** The values a right answer quotes (each item of a list); without it, context_contains and facts_present. */
        reply_holds: z.array(z.string().min(1)).optional(),
        /** Nothing the user said answers the probe: a right reply quotes nothing. */
        reply_none: z.literal(true).optional(),
      }),
    }),
  ),
});

export type ScenarioFile = z.infer<typeof scenarioFileSchema>;

export type ScenarioResult = {
  id: string;
  pass: boolean;
  missing: string[];
  /** With `reply`: the chat model's reply to the probe's context, and which of the expected values it holds. */
  reply?: ReplyReading;
  retrievalQuery: string;
  rewriteReason: string;
  facts: string[];
  context: { system: string; messages: unknown[] };
  tokens: number;
};

/** An expected value (`context_contains`, `facts_present`): whether the context holds it, and whether the reply does. */
type ExpectedInReply = { value: string; inContext: boolean; inReply: boolean };

/**
 * A reply as the answer measures read it: its text, the expected values, and what it quotes of memory
 * in order (`quotedItems`), each with whether it holds an expected value. `none`: nothing answers the probe.
 */
type ReplyReading = {
  text: string;
  expected: ExpectedInReply[];
  quoted: Array<{ text: string; holdsExpected: boolean }>;
  none: boolean;
};

/**
 * Each scenario gets a fresh user; its conversations are imported in order, then the probe's context
 * is assembled. With `reply`, the chat model (the offline one, or the configured one) also answers
 * the probe from exactly that context, and the expected values are looked for in its reply.
 */
export async function runScenarios(file: ScenarioFile, options: { reply?: boolean } = {}): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of file.scenarios) {
    const user = await createGuestUser();
    const conversationIds: string[] = [];
    for (const [index, messages] of scenario.conversations.entries()) {
      const imported = await importConversation(user.id, { title: `${scenario.id} #${index}`, messages });
      conversationIds.push(imported.conversationId);
    }
    const { probe, expect } = scenario;
    const conversationId =
      probe.conversation === 'new' ? (await createConversation(user.id, `${scenario.id} probe`)).id : conversationIds[probe.conversation];
    if (!conversationId) throw new Error(`${scenario.id}: probe.conversation ${probe.conversation} does not exist`);
    const state = await previewContext({ userId: user.id, conversationId }, probe.message);

    const text = contextText(state);
    const facts = state.numbered.filter((item) => item.kind === 'fact').map((item) => item.text);
    const missing = [
      ...(expect.context_contains ?? []).filter((s) => !text.includes(s)).map((s) => `context lacks "${s}"`),
      ...(expect.rewrite_contains ?? []).filter((s) => !state.retrieval.query.includes(s)).map((s) => `retrieval query lacks "${s}"`),
      ...(expect.facts_absent ?? []).filter((s) => facts.some((f) => f.includes(s))).map((s) => `an active fact given holds "${s}"`),
      ...(expect.context_absent ?? []).filter((s) => text.includes(s)).map((s) => `context holds "${s}"`),
      ...(expect.context_once ?? []).flatMap((s) => {
        const count = occurrences(text, s);
        return count === 1 ? [] : [`context holds "${s}" ${count} times, not once`];
      }),
      ...(expect.facts_present ?? []).filter((s) => !facts.some((f) => f.includes(s))).map((s) => `no active fact given holds "${s}"`),
    ];
    const reply = options.reply ? await replyTo(state) : undefined;
    const expectedValues = expect.reply_holds ?? [...(expect.context_contains ?? []), ...(expect.facts_present ?? [])];
    results.push({
      id: scenario.id,
      pass: missing.length === 0,
      missing,
      ...(reply === undefined
        ? {}
        : {
            reply: {
              text: reply,
              expected: expectedValues.map((value) => ({ value, inContext: text.includes(value), inReply: reply.includes(value) })),
              quoted: quotedItems(reply, state.numbered).map((quoted) => ({
                text: quoted,
                holdsExpected: expectedValues.some((value) => quoted.includes(value)),
              })),
              none: expect.reply_none === true,
            },
          }),
      retrievalQuery: state.retrieval.query,
      rewriteReason: state.retrieval.reason,
      facts,
      context: { system: state.system, messages: state.messages },
      tokens: state.budget?.total ?? 0,
    });
  }
  return results;
}

/** The chat model's reply to exactly the assembled context, as a chat turn would send it. */
async function replyTo(state: Awaited<ReturnType<typeof previewContext>>): Promise<string> {
  const { text } = await generateText({ model: state.models.chat, instructions: state.system, messages: state.messages, maxRetries: 0 });
  return text;
}

/**
 * What a reply quotes of memory, in order: for each citation [n], the numbered item's text; for a quote
 * cited by nothing (a line of the conversation), the quoted words. A reply quoting nothing gives none.
 */
export function quotedItems(reply: string, numbered: Array<{ n: number; text: string }>): string[] {
  const out: string[] = [];
  // Split at runs of citations: a piece of text, then what cites it ("You told me: "…" [2][3]." cites two items).
  const parts = reply.split(/(\[\d+\](?:\s?\[\d+\])*)/u);
  for (let i = 0; i < parts.length; i += 2) {
    const cited = [...(parts[i + 1] ?? '').matchAll(/\[(\d+)\]/gu)].map((m) => Number(m[1]));
    const items = cited.flatMap((n) => numbered.filter((item) => item.n === n).map((item) => item.text));
    const quotes = [...parts[i].matchAll(/"([^"]+)"|“([^“”]+)”/gu)].map((m) => m[1] ?? m[2]);
    // The citations own the piece's last quote; quotes before it are cited by nothing.
    out.push(...(items.length > 0 ? [...quotes.slice(0, -1), ...items] : quotes));
  }
  return out;
}

/**
 * The answer measures, each a share (null when there is nothing to count):
 * - `inReplyWhenInContext`: of the expected values the contexts hold, those the replies hold; `inReply`: of all.
 * - Over the replies to probes whose context holds an expected value: `firstQuotedHolds`, the first item
 *   quoted holds one; `quotesUnrelated`, something quoted holds none; `saysNothingWhenInContext`, nothing quoted.
 * - Over the probes nothing answers (`reply_none`): `quotesWhenNothingAnswers`, the reply quotes something anyway.
 */
export function replyRates(results: ScenarioResult[]) {
  const replies = results.flatMap((r) => (r.reply ? [r.reply] : []));
  const expected = replies.flatMap((reply) => reply.expected);
  const inContext = expected.filter((e) => e.inContext);
  const answerable = replies.filter((reply) => !reply.none && reply.expected.some((e) => e.inContext));
  const unanswerable = replies.filter((reply) => reply.none);
  const count = (list: ReplyReading[], test: (reply: ReplyReading) => boolean) => share(list.filter(test).length, list.length);
  return {
    expected: expected.length,
    inContext: inContext.length,
    inReplyWhenInContext: share(inContext.filter((e) => e.inReply).length, inContext.length),
    inReply: share(expected.filter((e) => e.inReply).length, expected.length),
    answerable: answerable.length,
    firstQuotedHolds: count(answerable, (reply) => reply.quoted[0]?.holdsExpected === true),
    quotesUnrelated: count(answerable, (reply) => reply.quoted.some((quoted) => !quoted.holdsExpected)),
    saysNothingWhenInContext: count(answerable, (reply) => reply.quoted.length === 0),
    unanswerable: unanswerable.length,
    quotesWhenNothingAnswers: count(unanswerable, (reply) => reply.quoted.length > 0),
  };
}

/** Non-overlapping occurrences of `part` in `text`. */
export function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

export function formatTable(results: ScenarioResult[]): string {
  const replies = results.some((r) => r.reply);
  const missedInReply = (r: ScenarioResult) =>
    (r.reply?.expected ?? [])
      .filter((e) => e.inContext && !e.inReply)
      .map((e) => e.value)
      .join('; ') || '-';
  const quotesRead = (r: ScenarioResult) => (r.reply?.quoted ?? []).map((q) => (q.holdsExpected ? '+' : '-')).join('') || 'nothing';
  const rows = results.map((r) => [
    r.id,
    r.pass ? 'pass' : 'FAIL',
    String(r.tokens),
    r.missing.join('; ') || '-',
    ...(replies ? [missedInReply(r), quotesRead(r)] : []),
  ]);
  const header = [
    'scenario',
    'result',
    'tokens',
    'missing',
    ...(replies ? ['in the context, not in the reply', 'quoted (+ holds an expected value, - not)'] : []),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
