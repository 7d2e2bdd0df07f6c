import { z } from 'zod';
import type { ExistingFact, FactCandidate } from '@/lib/memory/rules/fact-types';
import type { RecentTurn } from '@/lib/memory/rules/rewrite';
import type { SummaryInput } from '@/lib/memory/rules/summarise';
import { KIND_HINTS, TYPED_SLOTS } from '@/lib/shared/fact-kinds';

/**
 * What the memory model is asked, one entry per operation: its instructions, the prompt built from
 * its input, and the schema of its output where it answers in JSON. Changing a word here changes
 * what every configured memory model reads (and the rewrite cache keeps answers to the old wording).
 */

const day = (date: Date) => date.toISOString().slice(0, 10);

export const rewritePrompt = {
  instructions:
    'Rewrite the final question into one standalone search query for a memory search. Replace pronouns and references with what they refer to, keep names and titles exactly, and write dates as YYYY-MM-DD. Answer with the query only, in the language of the question.',
  /** The last three user turns and the reply before the question (for "it"). */
  prompt: (question: string, history: RecentTurn[], now: Date) => {
    const userTurns = history.filter((m) => m.role === 'user').slice(-3);
    const lastReply = history.findLast((m) => m.role === 'assistant');
    return [
      `Today is ${day(now)}.`,
      ...userTurns.map((m) => `User: ${m.content}`),
      ...(lastReply ? [`Assistant: ${lastReply.content}`] : []),
      `Final question: ${question}`,
    ].join('\n');
  },
};

export const extractPrompt = {
  // The kinds of fact are data (lib/shared/fact-kinds.ts): a new kind's hint joins this list.
  instructions: `Extract durable facts the user states about themselves (${KIND_HINTS}). What held before or where they come from ("I grew up in Gdańsk", "I used to work at Siemens") is slot past, valued "origin:gdańsk" or "<slot>:<value>" ("work:siemens"): it never replaces a current fact. Ignore questions, requests, one-off events and opinions about other people. Return an empty list when there are none.`,
  prompt: (text: string, saidAt: Date) => `Message sent on ${day(saidAt)}:\n${text}`,
  schema: z.object({
    facts: z.array(
      z.object({
        slot: z.enum(TYPED_SLOTS),
        text: z.string().describe('The user\'s own clause, first person, e.g. "I\'m pescatarian now"'),
        value: z.string().describe('Normalised value to compare facts of a slot, lower-case for Latin script'),
        negated: z.boolean().describe('true when the statement ends something ("no longer", "not anymore")'),
        validFrom: z.string().nullable().describe('YYYY-MM-DD when the user says when it became true, else null'),
      }),
    ),
  }),
};

export const reconcilePrompt = {
  instructions:
    'You maintain a memory of facts about a user. Given a new fact and the existing related facts, decide: ADD (new information), UPDATE <id> (the new fact replaces an existing one, e.g. a move or a changed diet), DELETE <id> (the new fact says an existing one stopped being true), or NONE <id> (already known). Prefer one decision.',
  prompt: (candidate: FactCandidate, related: ExistingFact[]) =>
    JSON.stringify({ newFact: candidate, existingFacts: related.map((f) => ({ id: f.id, slot: f.slot, text: f.text })) }),
  schema: z.object({
    decisions: z.array(
      z.object({
        event: z.enum(['ADD', 'UPDATE', 'DELETE', 'NONE']),
        factId: z.string().nullable().describe('The id of the existing fact for UPDATE, DELETE and NONE'),
      }),
    ),
  }),
};

export const summarisePrompt = {
  instructions:
    'You maintain the running summary of a conversation. Update the previous summary with the new messages. Keep names, numbers, dates, decisions and everything the user said about themselves. Keep any wording a person wrote into the previous summary. Never repeat text marked as forgotten. Answer with the summary only, as short bullet lines, in the language of the conversation.',
  prompt: (previous: string | null, messages: SummaryInput[]) =>
    `Previous summary:\n${previous ?? '(none)'}\n\nNew messages:\n${messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`).join('\n')}`,
};
