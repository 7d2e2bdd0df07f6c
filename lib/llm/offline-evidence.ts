/**
 * The offline model's reading of its prompt: the evidence it may answer from, each piece as what it is
 * (a fact, a summary line, one side of an earlier exchange, a statement in the window).
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ListedBlock, parseMemoryLine, SECTION_HEADERS } from '@/lib/memory/memory-line';
import { CORRECTION, FORGOTTEN } from '@/lib/memory/redaction-marks';
import { contentFeatures } from '@/lib/text/text-features';

/** What the offline model says when nothing in its context answers; its own earlier such replies are no evidence. */
export const NO_ANSWER = { en: "Nothing you've told me answers that yet.", zh: '你还没有告诉过我这个。' };

/**
 * One piece of evidence: a fact, a summary line, one side of an earlier exchange, or a statement
 * the user made in this conversation's window. `n` is the memory item's number, to cite.
 */
export type Evidence = {
  n?: number;
  block: ListedBlock | 'window';
  speaker: 'user' | 'assistant';
  text: string;
  age: number;
  /** A fact's type, from its notes. */
  slot?: string;
  /** When an exchange was said. */
  date?: string;
  /** Since when a fact holds, from its notes. */
  since?: string;
  /** The user asked this: it tells only what it says beyond the question now asked ("Since I'm giving the toast in Porto, how long…?"). */
  asked?: boolean;
  /** The exchange's reply asked something back: the user's answer is in the exchange after it. */
  asksBack?: boolean;
  /** What its kind is worth (PRIOR), or the most of the evidence it holds all of. */
  prior: number;
};

// How much each kind of evidence is worth beside its likeness to the question: what was noted about the
// user (facts, the summary) before what was said in passing, and what the user said before what was replied.
const PRIOR: Record<Evidence['block'], number> = { facts: 0.15, summary: 0.1, episodes: 0, window: 0.02 };
const ASKED_PRIOR = -0.2;
// A quotation closed and cited: `"…" [2]`, `“…”（自…起）[2]`.
const QUOTES_MEMORY = /["”](?:\s?[(（][^()（）]*[)）])?\s?\[\d{1,3}\]/u;

/** The memory items of the system prompt, as evidence: each section's items read as what they are. */
export function memoryEvidence(system: string): Evidence[] {
  const headers = Object.entries(SECTION_HEADERS) as Array<[ListedBlock, string]>;
  let block: ListedBlock = 'episodes';
  const out: Evidence[] = [];
  for (const line of system.split('\n')) {
    const header = headers.find(([, text]) => text.trimEnd() === line);
    if (header) block = header[0];
    const item = parseMemoryLine(line);
    if (!item) continue;
    if (block === 'facts') out.push(...factEvidence(item.n, item.text));
    else if (block === 'summary') out.push(...summaryEvidence(item.n, item.text));
    else out.push(...exchangeEvidence(item.n, item.text));
  }
  return out;
}

/** A fact, line by line (an edited fact may hold several), each line with the fact's notes. */
function factEvidence(n: number, text: string): Evidence[] {
  const { text: said, ...notes } = withoutNotes(text);
  return linesOf(said).map((line) => ({
    n,
    block: 'facts' as const,
    speaker: 'user' as const,
    text: line,
    ...notes,
    age: 0,
    prior: PRIOR.facts,
  }));
}

/** A fact's closing notes, "(location, current since …)" (recall-facts.ts writes them), say its type; they are not the user's words. */
function withoutNotes(fact: string): { text: string; slot?: string; since?: string } {
  const notes = /(?<!\s)\s*\(([^()]*)\)$/u.exec(fact);
  if (!notes) return { text: fact };
  const slot = /^([a-z]+), current since/u.exec(notes[1])?.[1];
  const since = /(?:current since|told) (\d{4}-\d{2}-\d{2})/u.exec(notes[1])?.[1];
  return { text: fact.slice(0, notes.index), ...(slot ? { slot } : {}), ...(since ? { since } : {}) };
}

/** The summary's lines, "- User: …" and "- Assistant: …", read as one exchange after another. */
function summaryEvidence(n: number, text: string): Evidence[] {
  const parts = linesOf(text).map((line) => line.replace(/^-\s*/u, ''));
  return conversationEvidence(parts, { n, block: 'summary' });
}

/** An earlier exchange, "(date) User: … / Assistant: …". */
function exchangeEvidence(n: number, text: string): Evidence[] {
  const dated = /^\((\d{4}-\d{2}-\d{2})\) /u.exec(text);
  const parts = text.slice(dated?.[0].length ?? 0).split(/ \/ (?=(?:User|Assistant): )/u);
  return conversationEvidence(parts, { n, block: 'episodes', ...(dated ? { date: dated[1] } : {}) });
}

/**
 * Labelled lines of a conversation: what the user stated is evidence; a reply is evidence only of
 * what it adds to a question (a reply that only turned the question back, or said nothing answered
 * it, answers nothing now either). Unlabelled lines are notes about the user.
 */
function conversationEvidence(parts: string[], item: Pick<Evidence, 'n' | 'block' | 'date'>): Evidence[] {
  const out: Evidence[] = [];
  let asked = '';
  for (const part of parts) {
    const match = /^(User|Assistant): (.*)$/su.exec(part);
    const said = plain(match ? match[2] : part);
    if (!said) continue;
    if (match?.[1] === 'Assistant') {
      // A reply that quoted memory is no evidence of its own: what it quoted is, as the item it cited.
      if (QUOTES_MEMORY.test(said)) asked = '';
      else if (asked && addsToQuestion(said, asked))
        out.push({ ...item, speaker: 'assistant', text: said, age: 0, prior: PRIOR[item.block] });
      else if (!asked && /[?？]\s*$/u.test(said)) for (const e of out) e.asksBack = true;
      asked = '';
    } else {
      const { told, questions } = toldAndAsked(said);
      asked += questions;
      if (told) out.push({ ...item, speaker: 'user', text: told, age: 0, prior: PRIOR[item.block] });
      if (questions)
        out.push({ ...item, speaker: 'user', asked: true, text: questions.trim(), age: 0, prior: PRIOR[item.block] + ASKED_PRIOR });
    }
  }
  return out;
}

/**
 * A user's message split into what it tells and what it asks: its sentences that end in a question
 * mark ask ("I'm off to Japan in spring. Any tips?" tells the trip); requests without one still tell
 * what they name ("Let's plan my garden: tomatoes and sweet peas").
 */
function toldAndAsked(text: string): { told: string; questions: string } {
  const sentences = [...sentenceSegmenter.segment(text)].map((s) => s.segment);
  const asks = (sentence: string) => /[?？]\s*$/u.test(sentence);
  return {
    told: sentences
      .filter((s) => !asks(s))
      .join('')
      .trim(),
    questions: sentences.filter(asks).join(''),
  };
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

function addsToQuestion(reply: string, question: string): boolean {
  if (Object.values(NO_ANSWER).some((sentence) => reply.includes(sentence))) return false;
  const asked = new Set(contentFeatures(question));
  return contentFeatures(reply.replaceAll(question.trim(), '')).some((feature) => !asked.has(feature));
}

/** The user's statements in the window (never its questions, nor the replies): the newest is the likeliest referent. */
export function windowEvidence(messages: LanguageModelV4Prompt): Evidence[] {
  const statements = messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => linesOf(textOf(m.content)))
    .map((line) => toldAndAsked(line).told)
    .filter((told) => told !== '');
  return statements.map((text, i) => ({
    block: 'window' as const,
    speaker: 'user' as const,
    text,
    age: statements.length - 1 - i,
    prior: PRIOR.window,
  }));
}

type Content = LanguageModelV4Prompt[number]['content'];

export function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

/** The lines of a text, each as the user's words (`plain`). */
function linesOf(text: string): string[] {
  return plain(text)
    .split(/[\r\n\u0085\u2028\u2029]+/u)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** A correction reads as what the user put instead; a forgotten part as nothing. */
const plain = (text: string) => text.replace(CORRECTION, '$1').replaceAll(FORGOTTEN, '').trim();
