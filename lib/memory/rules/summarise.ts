/**
 * Offline rolling summary: an extractive summariser. It keeps the previous summary as written (a
 * person may have edited it) and appends what the newly covered messages said as bullet lines:
 * what the user said first (their statements, and their requests and questions in their own words),
 * then only what a reply adds (a reply that repeats what is already there, such as an echo of the
 * user's words, adds nothing). Every kept line is a verbatim slice of its message (or a prefix of
 * one, ending in "…"), so the provenance check in refresh-summary can find the message it came from.
 */
import { contentFeatures } from '@/lib/text/text-features';
import { absolutizeRelativeDates } from './relative-dates';

export type SummaryInput = { role: 'user' | 'assistant'; content: string; id?: string };

const DEFAULT_MAX_LINES = 24;
/** Lines per message by default: the user's words are the memory, a reply only what it adds. */
const DEFAULT_LINES_PER_MESSAGE = { user: 2, assistant: 1 } as const;
/** A line may carry a salient sentence and one adjacent salient sentence ("I rewatched X. Nolan …"). */
const MAX_SENTENCES_PER_LINE = 2;
const MAX_LINE_CHARS = 280;
/** Sentences scoring below this are not worth a line (the user's request or question is kept anyway). */
const KEEP_THRESHOLD = 2;
/** A reply's sentence or quotation sharing this share of its words with one line already kept repeats it. */
const REPEAT_SHARE = 0.7;

export function summariseExtractive(
  previous: string | null,
  newMessages: SummaryInput[],
  options: { maxLines?: number; maxLinePerMessage?: number } = {},
): string {
  const maxLines = Math.max(1, options.maxLines ?? DEFAULT_MAX_LINES);
  const lines = previousLines(previous);
  const present = new Set(lines);
  for (const message of newMessages) {
    const perMessage = Math.max(1, options.maxLinePerMessage ?? DEFAULT_LINES_PER_MESSAGE[message.role]);
    for (const line of linesFor(message, perMessage, lines)) {
      // Re-summarising the same messages must not repeat them.
      if (!present.has(line)) lines.push(line);
      present.add(line);
    }
  }
  return capLines(lines, maxLines).join('\n');
}

/** The previous summary's lines, verbatim; only leading and trailing blank lines go. */
function previousLines(previous: string | null): string[] {
  if (!previous) return [];
  const lines = previous.split(/\r?\n/u).map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const BULLET = /^\s*[-*•]\s/u;

/**
 * Over the cap, lines go in this order, oldest first within each: the replies' lines, the user's
 * requests and questions, the user's statements; free text a person wrote goes only when nothing
 * else is left. Blank lines do not count.
 */
function capLines(lines: string[], maxLines: number): string[] {
  const out = [...lines];
  let count = out.filter((line) => line.trim() !== '').length;
  while (count > maxLines) {
    const worth = out.map(keepWorth);
    const lowest = Math.min(...worth.filter((w, i) => out[i].trim() !== '' && w >= 0));
    out.splice(
      worth.findIndex((w, i) => w === lowest && out[i].trim() !== ''),
      1,
    );
    count--;
  }
  while (out.length > 0 && out[0].trim() === '') out.shift();
  return out;
}

const LINE_ROLE = /^\s*[-*•]\s*(User|Assistant)\s*[:：]\s*/u;

/** 0 a reply's line, 1 the user's request or question, 2 the user's statement, 3 any other text; -1 blank. */
function keepWorth(line: string): number {
  if (line.trim() === '') return -1;
  const role = line.match(LINE_ROLE)?.[1];
  if (!role) return BULLET.test(line) ? 1 : 3;
  if (role === 'Assistant') return 0;
  return sentenceSalience(line.replace(LINE_ROLE, ''), 'user') >= KEEP_THRESHOLD ? 2 : 1;
}

// ---------------------------------------------------------------------------------------------
// Sentences

type Sentence = { start: number; end: number; text: string; newlineBefore: boolean };

const ABBREVIATIONS = /\b(mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|no|approx)$/iu;

/** Sentences with their offsets. "." ends a sentence only before a space or the end, a closing quote between them allowed (so 3.5 and e.g. stay whole); 。！？ and line breaks always do. */
function splitSentences(content: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  let newlineBefore = false;
  const push = (end: number, nextNewline: boolean) => {
    const raw = content.slice(start, end);
    const lead = raw.match(/^\s*(?:[-*•>#]+\s+|\d+[.)]\s+)?/u)?.[0].length ?? 0;
    const text = raw.slice(lead).trimEnd();
    if (text) out.push({ start: start + lead, end: start + lead + text.length, text, newlineBefore });
    start = end;
    newlineBefore = nextNewline;
  };
  for (let i = 0; i < content.length; i++) {
    const char = content[i];
    if (char === '\n') {
      push(i, true);
      start = i + 1;
      continue;
    }
    let end = -1;
    if ('。！？'.includes(char)) end = i + 1;
    else if ('.!?'.includes(char)) {
      const next = content[i + 1];
      // Before a space or the end, also past a closing quote or bracket ("… March." The course …).
      const after = /["'”’)）」』]/u.test(next ?? '') ? content[i + 2] : next;
      const atBoundary = after === undefined || /\s/u.test(after);
      if (atBoundary && !(char === '.' && ABBREVIATIONS.test(content.slice(Math.max(start, i - 8), i)))) end = i + 1;
    }
    if (end < 0) continue;
    while (end < content.length && /["'”’)）」』.!?。！？]/u.test(content[end])) end++;
    push(end, false);
    i = end - 1;
  }
  push(content.length, false);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Salience

// Greetings, thanks and small talk, which isFiller reads a run of ("ok thanks", 好的谢谢). Each phrase is
// tried on its own where it may start, so no pattern has to choose among them (one did, exponentially).
const FILLER_PHRASES = [
  /hi/iuy,
  /hello/iuy,
  /hey/iuy,
  /thanks/iuy,
  /thank you/iuy,
  /thx/iuy,
  /ok/iuy,
  /okay/iuy,
  /sure/iuy,
  /great/iuy,
  /cool/iuy,
  /nice/iuy,
  /got it/iuy,
  /no problem/iuy,
  /you're welcome/iuy,
  /of course/iuy,
  /absolutely/iuy,
  /good question/iuy,
  /great question/iuy,
  /happy to help/iuy,
  /hope this helps/iuy,
  /hope that helps/iuy,
  /anything else/iuy,
  /anything else\?/iuy,
];
const FILLER_PHRASES_ZH = ['你好', '您好', '谢谢', '多谢', '好的', '好', '嗯', '没问题', '不客气', '当然', '好问题'];
/** Phrases that take the rest of their line with them ("let me know if …", "glad you liked it"). */
const FILLER_TO_LINE_END = /(?:let me know|glad)\b/iuy;
const FILLER_SEPARATOR = /[\s!.。！~～,，]/u;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/u;

/**
 * Whether the whole text is filler: a run of FILLER_PHRASES(_ZH) (嗯+ is one 嗯 after another), 哈哈+,
 * 希望…有帮助 within a line and FILLER_TO_LINE_END, each followed by any FILLER_SEPARATORs. Read left to
 * right, marking where a phrase with its separators may end: linear time however the phrases repeat.
 */
function isFiller(text: string): boolean {
  const ends = new Uint8Array(text.length + 1);
  // Where a 哈哈+ may go on with one more 哈.
  const laughs = new Uint8Array(text.length + 1);
  // From where a phrase's rest of the line, or a 希望's …, has run without a line break.
  let lineRestFrom = Number.POSITIVE_INFINITY;
  let hopeFrom = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= text.length; i++) {
    if (i >= lineRestFrom) ends[i] = 1;
    if (i === text.length) break;
    const char = text[i];
    if (ends[i] && FILLER_SEPARATOR.test(char)) ends[i + 1] = 1;
    if (laughs[i] && char === '哈') laughs[i + 1] = ends[i + 1] = 1;
    if (i >= hopeFrom && text.startsWith('有帮助', i)) ends[i + 3] = 1;
    if (i === 0 || ends[i]) {
      for (const phrase of FILLER_PHRASES) {
        phrase.lastIndex = i;
        if (phrase.test(text)) ends[phrase.lastIndex] = 1;
      }
      for (const phrase of FILLER_PHRASES_ZH) if (text.startsWith(phrase, i)) ends[i + phrase.length] = 1;
      if (text.startsWith('哈哈', i)) laughs[i + 2] = ends[i + 2] = 1;
      if (text.startsWith('希望', i)) hopeFrom = Math.min(hopeFrom, i + 2);
      FILLER_TO_LINE_END.lastIndex = i;
      if (FILLER_TO_LINE_END.test(text)) lineRestFrom = Math.min(lineRestFrom, FILLER_TO_LINE_END.lastIndex);
    }
    if (LINE_TERMINATOR.test(char)) lineRestFrom = hopeFrom = Number.POSITIVE_INFINITY;
  }
  return ends[text.length] === 1;
}

// Not "me": "Give me some names" is a request, not a statement about oneself.
const FIRST_PERSON_EN = /\b(i|i'm|i've|i'd|i'll|my|mine|myself|we|we're|our)\b/iu;
const PREFERENCE =
  /\b(like|likes|liked|love|loves|loved|hate|hates|hated|prefer|prefers|preferred|favou?rite|enjoy|enjoys|enjoyed|can't stand|allergic|fan of)\b|喜欢|爱看|爱吃|爱听|热爱|讨厌|最爱|偏好|过敏|受不了/iu;
const DECISION =
  /\b(decided|decide|will|i'll|going to|gonna|plan|plans|planning|want to|booked|bought|switched|started|quit|moved|signed up|chose|picked|agreed)\b|决定|打算|计划|准备|开始|搬家|搬到|换成|选了|报名|买了/iu;
const IDENTITY = /\b(my name is|call me|i am an? |i'm an? |i work|i live|i was born|years old)\b|我叫|叫我|我是|我住|岁/iu;
const NUMBER = /\d|[一二三四五六七八九十百千万两](?:年|月|日|号|天|岁|度|次|元|块|公里|斤|米|倍|小时|分钟)/u;
const QUESTION = /[?？]\s*$/u;
const INTRO = /[:：]\s*$/u; // "Here's a haiku:" introduces content, it is not content.
const EPOCH = new Date(0);

/**
 * Salience of one sentence, 0 and up; sentences from KEEP_THRESHOLD (2) are kept.
 *   +2 a name (capitalised words, 《titles》, quoted names, 汉斯·季默, 我叫张三), +1 per further name, up to +4;
 *   +2 a number, +1 a date (absolute or relative);
 *   +1 dense (4+ content words), -1 nearly empty (under 2 content words and no name);
 *   statements by the user only (what they say about themselves is the memory; "I'll …" from the
 *   assistant or "What will …?" is not a plan): +3 first person (I/my/我), +2 a preference,
 *   +2 a decision or plan, +2 identity ("my name is", 我叫);
 *   -2 a question (-3 from the assistant), -2 a line that only introduces what follows ("Here you go:"),
 *   -1 for the assistant (general knowledge is worth less than what the user said).
 * Greetings and filler score 0.
 */
export function sentenceSalience(sentence: string, role: 'user' | 'assistant'): number {
  const text = sentence.trim();
  if (!text || isFiller(text)) return 0;
  const question = QUESTION.test(text);
  const features = contentFeatures(text);
  const names = countNames(text);
  let score = 0;
  if (names > 0) score += Math.min(4, names + 1);
  if (NUMBER.test(text)) score += 2;
  if (absolutizeRelativeDates(text, EPOCH).resolved.length > 0 || /\b(last night|recently|ago)\b|最近|刚才/iu.test(text)) score += 1;
  if (role === 'user' && !question) {
    if (FIRST_PERSON_EN.test(text) || text.includes('我')) score += 3;
    if (PREFERENCE.test(text)) score += 2;
    if (DECISION.test(text)) score += 2;
    if (IDENTITY.test(text)) score += 2;
  }
  if (features.length >= 4) score += 1;
  if (features.length < 2 && names === 0) score -= 1;
  if (question) score -= role === 'user' ? 2 : 3;
  if (INTRO.test(text)) score -= 2;
  if (role === 'assistant') score -= 1;
  return Math.max(0, score);
}

const OPENERS = new Set(
  "i i'm i've i'd i'll you your we our he she it its they their my this that these those the a an and but or so if then when where what who which why how is are was were do does did can could would should will yes no hi hello hey thanks ok okay sure great good well oh also just here here's there there's let let's please sorry yeah maybe actually really first next finally however yesterday today tomorrow last now in on at for with from to of by as after before since while because try keep make use add put take get go see check remember note consider start avoid set mix store place give tell find look think all some any every each most many much more both other another such".split(
    ' ',
  ),
);

/** Names in a sentence: capitalised runs other than an ordinary sentence opener, 《》/「」 titles, quoted names, Chinese names. */
function countNames(text: string): number {
  let count = 0;
  for (const m of text.matchAll(/\p{Lu}[\p{L}'’-]*(?:\s+(?:(?:of|the|de|van|von|la|le|du|der)\s+)*\p{Lu}[\p{L}'’-]*)*/gu)) {
    const parts = m[0].split(/\s+/u);
    const atStart = /^[\s"'“‘(]*$/u.test(text.slice(0, m.index));
    const rest =
      atStart && OPENERS.has(parts[0].toLowerCase().replace(/['’]s$/u, '')) && !(parts[0] === 'The' && parts.length > 1)
        ? parts.slice(1)
        : parts;
    if (rest.length === 0 || (rest.length === 1 && rest[0] === 'I') || (atStart && rest.length === 1 && rest === parts)) continue;
    count++;
  }
  // A “quotation” is a name up to 40 characters long.
  count += quotations(text, TITLE_MARKS, (open, inner) => open !== '“' || (inner.length <= 80 && [...inner].length <= 40)).length;
  count += (text.match(/[\u4e00-\u9fff]{1,6}(?:[·・•][\u4e00-\u9fff]{1,6})+/gu) ?? []).length;
  if (/(?:我叫|名叫|名字是|名字叫)[\u4e00-\u9fff]{2,3}(?=[，。！？,.!?\s]|$)/u.test(text)) count++;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Lines

/**
 * A message's lines: its best sentence, joined with an adjacent salient sentence on the same line
 * of text; then the next best, up to `perMessage` lines, in the message's order. A user message with
 * nothing salient still gives its request or question. A reply's words that repeat a line already
 * kept (`earlier`) count for nothing.
 */
function linesFor(message: SummaryInput, perMessage: number, earlier: string[]): string[] {
  const sentences = splitSentences(message.content);
  const known = message.role === 'assistant' ? earlier.map((line) => new Set(contentFeatures(line))) : [];
  const scores = sentences.map((s) => sentenceSalience(withoutRepeats(s.text, known), message.role));
  const used = new Set<number>();
  const groups: Array<[number, number]> = [];
  const ranked = sentences.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  for (const i of ranked) {
    if (groups.length >= perMessage || scores[i] < KEEP_THRESHOLD) break;
    if (used.has(i)) continue;
    let [first, last] = [i, i];
    const joinable = (j: number, k: number) =>
      j >= 0 && j < sentences.length && !used.has(j) && scores[j] >= KEEP_THRESHOLD && !sentences[k].newlineBefore;
    while (last - first + 1 < MAX_SENTENCES_PER_LINE) {
      if (joinable(last + 1, last + 1)) last++;
      else if (joinable(first - 1, first)) first--;
      else break;
    }
    for (let j = first; j <= last; j++) used.add(j);
    groups.push([first, last]);
  }
  if (groups.length === 0 && message.role === 'user') {
    const request = userRequest(sentences.map((s) => s.text));
    if (request >= 0) groups.push([request, request]);
  }
  const prefix = message.role === 'user' ? '- User: ' : '- Assistant: ';
  return groups
    .sort((a, b) => a[0] - b[0])
    .map(([first, last]) => prefix + clip(message.content.slice(sentences[first].start, sentences[last].end)));
}

/** The sentence that carries what the user asked for: the one with the most content words, if it has two; -1 for small talk. */
function userRequest(sentences: string[]): number {
  let best = -1;
  let bestWords = 1;
  sentences.forEach((text, i) => {
    const count = isFiller(text.trim()) ? 0 : new Set(contentFeatures(text)).size;
    if (count > bestWords) [best, bestWords] = [i, count];
  });
  return best;
}

/** Opening marks and their closing ones, of titles and of quotations. */
const TITLE_MARKS: Record<string, string> = { '《': '》', '「': '」', '『': '』', '“': '”' };
const QUOTATION_MARKS: Record<string, string> = { '"': '"', '“': '”', '「': '」', '『': '』' };

type Quotation = { start: number; end: number; inner: string };

/**
 * The quotations of a text from left to right, as /《([^》]+)》|…/g finds them: each from an opening
 * mark to the first closing one after it, with something between them that `fits`. Read with indexOf,
 * each closing mark found once, where the pattern scans to the end again from every unclosed 《.
 */
function quotations(text: string, marks: Record<string, string>, fits: (open: string, inner: string) => boolean = () => true): Quotation[] {
  const found: Quotation[] = [];
  const nextClose = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    const close = marks[text[i]];
    if (close === undefined) continue;
    let end = nextClose.get(close);
    if (end === undefined || (end >= 0 && end <= i)) {
      end = text.indexOf(close, i + 1);
      nextClose.set(close, end);
    }
    if (end > i + 1 && fits(text[i], text.slice(i + 1, end))) {
      found.push({ start: i, end: end + 1, inner: text.slice(i + 1, end) });
      i = end;
    }
  }
  return found;
}

/**
 * A reply's sentence without what it repeats: the whole sentence when most of its words are in one
 * kept line, else each quotation that holds most of a kept line or is mostly in one (a reply quoting
 * the user's words back, framed or not).
 */
function withoutRepeats(sentence: string, known: Array<Set<string>>): string {
  if (known.length === 0) return sentence;
  const repeats = (text: string, quoted: boolean) => {
    const features = new Set(contentFeatures(text));
    if (features.size === 0) return false;
    return known.some((line) => {
      let shared = 0;
      for (const feature of features) if (line.has(feature)) shared++;
      return shared / (quoted ? Math.min(features.size, line.size) : features.size) >= REPEAT_SHARE;
    });
  };
  if (repeats(sentence, false)) return '';
  let kept = '';
  let from = 0;
  for (const { start, end, inner } of quotations(sentence, QUOTATION_MARKS)) {
    if (!repeats(inner, true)) continue;
    kept += sentence.slice(from, start);
    from = end;
  }
  return kept + sentence.slice(from);
}

/** Long lines are cut at a word boundary (or anywhere in CJK) and end in "…". */
function clip(text: string): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  const cut = text.slice(0, MAX_LINE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_LINE_CHARS / 2 ? cut.slice(0, space) : cut).replace(/(?<![\s,，;；])[\s,，;；]+$/u, '')}…`;
}
