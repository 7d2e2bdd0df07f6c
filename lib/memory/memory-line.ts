/**
 * One memory item as one line of the system prompt: `[n] "text"`, the text a JSON string. Its
 * newlines and quotes are escaped, so nothing in it can end the line or the quote: a forged `[1] …`
 * or section header inside an item never starts a line of the prompt. JSON leaves some line breaks
 * as they are (U+2028, U+2029, NEL and the other C1 controls), and bidirectional controls could
 * reorder how the line reads: those are escaped too. No imports, so the offline model reads it too.
 */
export function memoryLine(n: number, text: string): string {
  return `[${n}] ${quoteMemoryText(text.trim())}\n`;
}

const UNESCAPED_BY_JSON = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/gu;

function quoteMemoryText(text: string): string {
  return JSON.stringify(text).replace(UNESCAPED_BY_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The memory item a prompt line lists (`[n] "text"`), its text decoded; undefined for any other line. */
export function parseMemoryLine(line: string): { n: number; text: string } | undefined {
  const match = /^\[(\d+)\] ("(?:[^"\\]|\\.)*")$/u.exec(line);
  if (!match) return undefined;
  return { n: Number(match[1]), text: JSON.parse(match[2]) as string };
}

/** The blocks of memory items the system prompt lists, each under its header. */
export type ListedBlock = 'facts' | 'summary' | 'episodes';

export const SECTION_HEADERS: Record<ListedBlock, string> = {
  facts: 'What the user has told you about themselves (across conversations):\n',
  summary: 'Summary of the earlier part of this conversation:\n',
  episodes: 'Earlier turns that may be relevant:\n',
};
