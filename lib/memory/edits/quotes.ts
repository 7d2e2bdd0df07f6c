import { getMessages, messagesContaining, repliesTo } from '@/db/history';
import { type Executor, factSources, type NewRedaction } from '@/db/provenance';
import type { Fact, Message } from '@/db/schema';
import { citationsQuoting } from '@/db/turns';
import { locateStatement, occurrences, sentenceAround, sentencesOf } from '../redaction';

// Where text that a correction takes away appears in a user's messages: the spans to redact.

export type Plan = { rows: NewRedaction[]; texts: string[] };

/**
 * Where facts were stated and repeated: each fact's source spans, every other place the user's
 * messages hold the statement word for word, and the sentences of replies that quoted or cited it.
 */
export async function planRedactions(
  userId: string,
  facts: Fact[],
  kind: NewRedaction['kind'],
  replacement: string | null,
  actor: string,
): Promise<Plan> {
  const rows: NewRedaction[] = [];
  const texts = new Set<string>();
  const add = (message: Message, start: number, end: number, factId: string) => {
    if (end <= start) return;
    rows.push({ messageId: message.id, userId, kind, spanStart: start, spanEnd: end, factId, replacement, actor });
    texts.add(message.content.slice(start, end));
  };
  const sources = await factSources(
    userId,
    facts.map((f) => f.id),
  );
  const sourceMessages = await getMessages(userId, [...new Set([...sources.values()].flat().map((s) => s.messageId))]);
  const byId = new Map(sourceMessages.map((m) => [m.id, m]));
  const cited = await citationsQuoting(
    userId,
    [],
    facts.map((f) => `fact:${f.id}`),
  );
  const citingReplies = new Map((await getMessages(userId, [...new Set(cited.map((c) => c.assistantMessageId))])).map((m) => [m.id, m]));

  for (const fact of facts) {
    const statements = new Set([fact.content]);
    for (const span of sources.get(fact.id) ?? []) {
      const message = byId.get(span.messageId);
      if (!message) continue;
      const { spanStart, spanEnd } =
        span.spanStart !== null && span.spanEnd !== null
          ? { spanStart: span.spanStart, spanEnd: span.spanEnd }
          : locateStatement(message.content, fact.content);
      add(message, spanStart, spanEnd, fact.id);
      statements.add(message.content.slice(spanStart, spanEnd));
    }
    // Repeated or quoted word for word anywhere else: a user's message loses the words, a reply the sentence.
    for (const message of await messagesContaining(userId, [...statements])) {
      for (const statement of statements) {
        for (const hit of occurrences(message.content, statement)) {
          const span = message.role === 'user' ? hit : sentenceAround(message.content, hit.start, hit.end);
          add(message, span.start, span.end, fact.id);
        }
      }
    }
    // Replies that cited it as [n], and replies to its statement that repeat its value: the sentence goes.
    const answering = sourceMessages.filter((m) => (sources.get(fact.id) ?? []).some((s) => s.messageId === m.id)).map((m) => m.id);
    const replies = [
      ...cited.flatMap((row) => {
        const item = (row.items as Array<{ key: string; n: number | null }>).find((i) => i.key === `fact:${fact.id}`);
        const reply = citingReplies.get(row.assistantMessageId);
        return reply && item?.n ? [{ reply, needles: [`[${item.n}]`, fact.value] }] : [];
      }),
      ...(await repliesTo(userId, answering)).map((reply) => ({ reply, needles: [fact.value] })),
    ];
    for (const { reply, needles } of replies) {
      for (const needle of needles.filter((n) => n.trim().length >= 4 || /^\[\d+\]$/u.test(n))) {
        for (const hit of occurrences(reply.content, needle)) {
          const span = sentenceAround(reply.content, hit.start, hit.end);
          add(reply, span.start, span.end, fact.id);
        }
      }
    }
    texts.add(fact.content);
  }
  return { rows: dedupe(rows), texts: [...texts] };
}

export function dedupe(rows: NewRedaction[]): NewRedaction[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = `${row.messageId}:${row.spanStart}:${row.spanEnd}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The sentence of a message around a hit, forgotten: what a reply that quoted withdrawn words loses. */
function forgottenSentence(userId: string, message: Message, hit: { start: number; end: number }, actor: string): NewRedaction {
  const span = sentenceAround(message.content, hit.start, hit.end);
  return {
    messageId: message.id,
    userId,
    kind: 'forgotten',
    spanStart: span.start,
    spanEnd: span.end,
    factId: null,
    replacement: null,
    actor,
  };
}

/**
 * The sentences of replies that quote any of `texts`, forgotten, except texts a user's message
 * (other than those in `changing`, which are going) still says; answers those too.
 */
async function quotingSentences(
  userId: string,
  texts: string[],
  actor: string,
  changing: Set<string> = new Set(),
): Promise<{ rows: NewRedaction[]; stillSaid: Set<string> }> {
  const found = await messagesContaining(userId, texts);
  const stillSaid = new Set(
    texts.filter((text) => found.some((m) => m.role === 'user' && !changing.has(m.id) && occurrences(m.content, text).length > 0)),
  );
  const rows: NewRedaction[] = [];
  for (const message of found.filter((m) => m.role === 'assistant' && !changing.has(m.id))) {
    for (const text of texts.filter((t) => !stillSaid.has(t)))
      for (const hit of occurrences(message.content, text)) rows.push(forgottenSentence(userId, message, hit, actor));
  }
  return { rows, stillSaid };
}

/**
 * Replies that quoted what the user said in messages being edited away or removed: each sentence
 * that holds such words goes from memory, unless the user still says the same elsewhere.
 */
export async function quotesOfMessages(userId: string, changing: Message[], actor: string): Promise<NewRedaction[]> {
  const said = [...new Set(changing.filter((m) => m.role === 'user').flatMap((m) => sentencesOf(m.content)))];
  return (await quotingSentences(userId, said, actor, new Set(changing.map((m) => m.id)))).rows;
}

/**
 * Replies that copied a summary text being withdrawn (a clear, or an edit that drops it): each
 * sentence that quotes a withdrawn sentence of the summary, or cites a withdrawn version as [n],
 * goes from memory, unless the user's own messages (or the summary's new text) still say it. A
 * summary line the user wrote by hand lives nowhere else, so a reply's copy of it would keep it alive.
 */
export async function quotesOfSummary(
  scope: { userId: string; conversationId: string },
  withdrawn: Array<{ version: number; content: string }>,
  kept: string,
  actor: string,
): Promise<NewRedaction[]> {
  const { userId } = scope;
  const said = [...new Set(withdrawn.flatMap((v) => summarySentences(v.content)))].filter((text) => occurrences(kept, text).length === 0);
  const { rows, stillSaid } = await quotingSentences(userId, said, actor);
  const stays = [...stillSaid, ...summarySentences(kept)];
  // Cited as [n]: the reply's sentence that cites the withdrawn version.
  const keys = withdrawn.map((v) => `summary:${scope.conversationId}@v${v.version}`);
  const cited = await citationsQuoting(userId, [], keys);
  const replies = new Map((await getMessages(userId, [...new Set(cited.map((c) => c.assistantMessageId))])).map((m) => [m.id, m]));
  for (const row of cited) {
    const reply = replies.get(row.assistantMessageId);
    if (!reply) continue;
    const items = (row.items as Array<{ key: string; n: number | null }>).filter((i) => keys.includes(i.key) && i.n);
    for (const item of items) {
      for (const hit of occurrences(reply.content, `[${item.n}]`)) {
        // A cited sentence that quotes words the user still says (or the summary still holds) stays.
        const span = sentenceAround(reply.content, hit.start, hit.end);
        const sentence = reply.content.slice(span.start, span.end);
        if (!stays.some((text) => occurrences(sentence, text).length > 0)) rows.push(forgottenSentence(userId, reply, hit, actor));
      }
    }
  }
  return dedupe(rows);
}

/** A summary's sentences, each line without its list mark ("- "). */
function summarySentences(content: string): string[] {
  return content.split('\n').flatMap((line) => sentencesOf(line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/u, '')));
}

/**
 * Replies that hold a corrected text word for word: memory reads each of them with the correction
 * in place (lib/memory/redaction.ts), so when the correction changes or ends, what was derived
 * from them is stale too.
 */
export async function repliesHolding(tx: Executor, userId: string, corrections: Array<{ needle: string | null }>): Promise<string[]> {
  const needles = corrections.flatMap((c) => (c.needle ? [c.needle] : []));
  return (await messagesContaining(userId, needles, tx)).filter((m) => m.role === 'assistant').map((m) => m.id);
}
