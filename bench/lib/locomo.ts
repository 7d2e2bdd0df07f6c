import { z } from 'zod';
import { getSql } from '@/db/client';
import { createConversation } from '@/db/conversations';
import { createGuestUser } from '@/db/users';
import { getConfig, resetConfigForTests } from '@/lib/config';
import { importConversation } from '@/lib/import';
import { basePrompt } from '@/lib/memory/context/context-layout';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import { countChatTokens } from '@/lib/memory/context/tokens';
import { progress } from './report';

/** LoCoMo's released format: samples with a conversation of sessions and QA with evidence dia_ids. */
const turnSchema = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().optional() }).loose();
export const locomoSchema = z.array(
  z
    .object({
      sample_id: z.union([z.string(), z.number()]).transform(String),
      conversation: z.record(z.string(), z.unknown()),
      qa: z.array(z.object({ question: z.string(), evidence: z.array(z.string()).default([]), category: z.number() }).loose()),
    })
    .loose(),
);
export type LocomoSample = z.infer<typeof locomoSchema>[number];

type Session = { index: number; at: Date; turns: Array<z.infer<typeof turnSchema>> };

function sessionsOf(sample: LocomoSample): Session[] {
  const conversation = sample.conversation;
  return Object.keys(conversation)
    .map((key) => /^session_(\d+)$/u.exec(key))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
    .map((index) => ({
      index,
      at: parseLocomoDate(String(conversation[`session_${index}_date_time`] ?? '')) ?? new Date(Date.UTC(2023, 0, index)),
      turns: z.array(turnSchema).parse(conversation[`session_${index}`]),
    }));
}

/** "1:56 pm on 8 May, 2023" → a UTC date. */
function parseLocomoDate(text: string): Date | undefined {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/iu.exec(text);
  if (!m) return undefined;
  const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
  const month = months.indexOf(m[5].slice(0, 3).toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

export type Mode = 'single' | 'sessions';

export type IngestedSample = {
  userId: string;
  probeConversationId: string;
  /** dia_id → the stored message's id and text. */
  turns: Map<string, { messageId: string; text: string; conversationId: string }>;
  messageCount: number;
  ingestMs: number;
};

/**
 * A fresh user; speaker_a's turns become the user's messages and speaker_b's the assistant's, with
 * each turn's dia_id in the message metadata; all post-turn work runs through the real import path.
 */
export async function ingestSample(sample: LocomoSample, mode: Mode, limitTurns = Infinity): Promise<IngestedSample> {
  const started = performance.now();
  const user = await createGuestUser();
  const speakerA = String(sample.conversation.speaker_a);
  const sessions = sessionsOf(sample);
  const toMessages = (session: Session, offset: number) =>
    session.turns.map((turn, i) => ({
      role: turn.speaker === speakerA ? ('user' as const) : ('assistant' as const),
      content: turn.blip_caption ? `${turn.text} [shares a photo: ${turn.blip_caption}]` : turn.text,
      metadata: { diaId: turn.dia_id, session: session.index },
      createdAt: new Date(session.at.getTime() + (offset + i) * 1000).toISOString(),
    }));
  const groups = mode === 'single' ? [sessions.flatMap((s) => toMessages(s, 0))] : sessions.map((s) => toMessages(s, 0));
  let budgetLeft = limitTurns;
  const trimmed = groups
    .map((g) => g.slice(0, Math.max(0, budgetLeft)))
    .map((g) => {
      budgetLeft -= g.length;
      return g;
    })
    .filter((g) => g.length > 0);

  const conversationIds: string[] = [];
  for (const [i, messages] of trimmed.entries()) {
    const { conversationId, jobs } = await importConversation(user.id, { title: `LoCoMo ${sample.sample_id} #${i + 1}`, messages });
    if (jobs.failed > 0) throw new Error(`post-turn work failed for ${jobs.failed} jobs`);
    conversationIds.push(conversationId);
    progress(`  sample ${sample.sample_id}: imported conversation ${i + 1}/${trimmed.length} (${messages.length} turns)`);
  }
  const rows = await getSql()`select id, conversation_id, content, metadata->>'diaId' as dia_id from messages where user_id = ${user.id}`;
  const turns = new Map(
    rows.map((r) => [
      r.dia_id as string,
      { messageId: r.id as string, text: r.content as string, conversationId: r.conversation_id as string },
    ]),
  );
  const probeConversationId = mode === 'single' ? conversationIds[0] : (await createConversation(user.id, 'LoCoMo questions')).id;
  return { userId: user.id, probeConversationId, turns, messageCount: rows.length, ingestMs: performance.now() - started };
}

/** recall: strict, by evidence text present; creditedRecall: also counting evidence an item lists as its source. */
export type QuestionResult = { category: number; recall: number; creditedRecall: number; tokens: number; evidenceFound: number };

/**
 * A question's evidence recall, two ways. Strict (the headline): the share of its evidence turns whose
 * text the model actually reads in the context, as written or as quoted in a memory line. Credited:
 * also counting a turn that some item in the context lists as its source (a fact or summary drawn
 * from it), which says the turn was used, not that its words are there.
 */
function evidenceRecall(
  evidence: string[],
  ingested: IngestedSample,
  text: string,
  sources: Set<string>,
): { strict: number; credited: number; found: number } {
  const known = evidence.map((d) => ingested.turns.get(d)).filter((t) => t !== undefined);
  if (known.length === 0) return { strict: 0, credited: 0, found: 0 };
  const present = known.filter((t) => textPresent(text, t.text));
  const credited = known.filter((t) => sources.has(t.messageId) || textPresent(text, t.text));
  return { strict: present.length / known.length, credited: credited.length / known.length, found: present.length };
}

function textPresent(context: string, turnText: string): boolean {
  const trimmed = turnText.trim();
  return context.includes(trimmed) || context.includes(JSON.stringify(trimmed).slice(1, -1));
}

const questionResult = (category: number, recall: { strict: number; credited: number; found: number }, tokens: number): QuestionResult => ({
  category,
  recall: recall.strict,
  creditedRecall: recall.credited,
  tokens,
  evidenceFound: recall.found,
});

/**
 * A naive design's context: the system prompt, then the last `limit` messages of the conversation the
 * question is asked in (recent window), or every message the user ever sent or received (limit null).
 */
async function naiveContext(ingested: IngestedSample, question: string, limit: number | null) {
  const sql = getSql();
  const rows = await sql`
    select id, content from (
      select id, content, created_at, seq from messages where user_id = ${ingested.userId}
      ${limit === null ? sql`` : sql`and conversation_id = ${ingested.probeConversationId}`}
      order by created_at desc, seq desc ${limit === null ? sql`` : sql`limit ${limit}`}
    ) recent order by created_at, seq`;
  const messages = [{ content: basePrompt(getConfig()) }, ...rows.map((r) => ({ content: r.content as string })), { content: question }];
  return {
    text: messages.map((m) => m.content).join('\n'),
    sources: new Set(rows.map((r) => r.id as string)),
    tokens: countChatTokens(messages, 'o200k_base'),
  };
}

/** Every question against every system: the naive baselines and ours at each budget. */
export async function evaluateSample(sample: LocomoSample, ingested: IngestedSample, budgets: number[], limitQuestions = Infinity) {
  const results: Record<string, QuestionResult[]> = {};
  const add = (system: string, r: QuestionResult) => {
    results[system] ??= [];
    results[system].push(r);
  };
  const questions = sample.qa.filter((q) => q.evidence.some((d) => ingested.turns.has(d))).slice(0, limitQuestions);
  const allRows = await naiveContext(ingested, '', null);
  for (const [i, qa] of questions.entries()) {
    if (i % 25 === 0) progress(`  sample ${sample.sample_id}: question ${i + 1}/${questions.length}`);
    const recent = await naiveContext(ingested, qa.question, 20);
    add('recent-20', questionResult(qa.category, evidenceRecall(qa.evidence, ingested, recent.text, recent.sources), recent.tokens));
    add(
      'full-history',
      questionResult(
        qa.category,
        evidenceRecall(qa.evidence, ingested, allRows.text, allRows.sources),
        allRows.tokens + countChatTokens([{ content: qa.question }], 'o200k_base') - 3,
      ),
    );
    for (const budget of budgets) {
      process.env.CONTEXT_BUDGET = String(budget);
      resetConfigForTests();
      const state = await previewContext({ userId: ingested.userId, conversationId: ingested.probeConversationId }, qa.question);
      const sources = new Set([...state.numbered, ...state.keptHistory].flatMap((item) => item.sourceMessageIds));
      add(
        `ours@${budget}`,
        questionResult(qa.category, evidenceRecall(qa.evidence, ingested, contextText(state), sources), state.budget!.total),
      );
    }
  }
  delete process.env.CONTEXT_BUDGET;
  resetConfigForTests();
  return results;
}
