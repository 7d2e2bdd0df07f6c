import { loadRecentWindow } from '@/db/history';
import { readRedacted } from '../redaction';
import { step } from './state';

/**
 * The recent window: the last HISTORY_WINDOW messages before the question written after the user's
 * memory floor, by a LIMIT in SQL, read as memory reads them (the parts the user had memlens forget
 * replaced, the parts they corrected carrying the correction; the chat still shows them as written,
 * marked), and the citation markers of earlier replies taken out (see `stripCitationMarkers`).
 */
export const loadHistory = step({
  name: 'load_history',
  reads: ['scope', 'question', 'assistantMessageId', 'config'],
  writes: ['history'],
  async run({ scope, question, assistantMessageId, config }) {
    // The window's redactions are read with it, in one statement.
    const { messages: window, redactions } = await loadRecentWindow(scope, config.HISTORY_WINDOW, [question.id, assistantMessageId]);
    return { history: windowAsSent(await readRedacted(window, 'memory', redactions)) };
  },
});

/**
 * Window messages, read with their redactions, as the model is sent them: a failed or empty reply
 * carries nothing it should see, and earlier replies lose their citation markers. Markers are
 * stripped after the redactions, whose spans are offsets into the stored text, and before
 * fit_to_budget counts the tokens, so the recorded tokens are those of the text actually sent.
 * Replay reads its window through this too, so a replay differs only where memory does.
 */
export function windowAsSent<M extends { role: string; content: string; status: string }>(rows: M[]): M[] {
  return rows
    .filter((m) => m.content.trim() !== '' && m.status !== 'failed')
    .map((m) => (m.role === 'assistant' ? { ...m, content: stripCitationMarkers(m.content) } : m));
}

/**
 * `[n]` markers at the start of a line or after an opening quote or bracket, with the blanks after them;
 * not tried again from each line start inside a run of U+2028/U+2029 blanks (each one a line break).
 */
const LEADING_MARKERS =
  /(?<=^|["“‘'(])(?<!(?:^|[\n\r\u2028\u2029"“‘'(])[\u2028\u2029](?=[^\S\r\n]))(?:[^\S\r\n]*\[\d{1,3}\])+(?![(:])[^\S\r\n]*/gmu;
/** Any other run of `[n]` markers, with the blanks before them, unless it opens a link `[1](…)` or a reference `[1]: …`. */
const MARKERS = /(?<![^\S\r\n])(?:[^\S\r\n]*\[\d{1,3}\])+(?![(:])/gu;
/** Fenced code blocks and inline code: `arr[3]` there is code, not a citation. */
const CODE = /(```[\s\S]*?(?:```|$)|`[^`\n]*`)/u;

/**
 * An earlier reply as the model is sent it again, without its `[n]` citations. Those numbers
 * referred to the memory listed in *that* turn's system prompt; this turn numbers its memory
 * afresh, so an old `[3]` would now point at another item (or none): the model could copy a
 * citation that is wrong for this turn, and `citedKeys` would credit this reply with it. The
 * stored message keeps its markers: the chat shows them and the old turn's record resolves them.
 */
export function stripCitationMarkers(text: string): string {
  if (!/\[\d{1,3}\]/u.test(text)) return text;
  return text
    .split(CODE)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(LEADING_MARKERS, '').replace(MARKERS, '')))
    .join('');
}
