/**
 * Offline retrieval rewrite. When a question leans on earlier turns (a pronoun or demonstrative
 * without its referent, an ellipsis, a very short question) the salient terms of the user's recent
 * turns are carried into the query, newest first: titles (《》, quotes), proper nouns, product names
 * with digits, Chinese names, the user's own things ("my sourdough starter"). Which verb or noun the
 * question uses does not matter, only that it points back; the search then finds the earlier turns
 * those terms come from. Retrieval only: the message shown and stored never changes. Pure functions,
 * English and Chinese.
 *
 * Terms are taken from the user's own turns only. Assistant replies are often boilerplate (the
 * offline model echoes lines back) and name things
 * the user never brought up.
 */

import { type Segment, segmentWords } from '@/lib/text/search-terms';
import { hasCjk, isCjk, words } from '@/lib/text/text-features';
import { absolutizeRelativeDates } from './relative-dates';

export type RewriteTrigger = { needed: boolean; reason: string };
export type RecentTurn = { role: 'user' | 'assistant'; content: string };

/** How the question points back, and whether it points at a person ("he", 那位) or a thing ("it", 它). */
type Reference = {
  phrase: string;
  index: number;
  form: 'reference' | 'former' | 'latter' | 'ellipsis' | 'short';
  kind: 'person' | 'thing' | 'any';
};

/** How many terms a rewrite carries. */
const MAX_TERMS = 3;

// ---------------------------------------------------------------------------------------------
// Trigger

const SMALL_TALK =
  /^\s*(hi|hello|hey|thanks|thank you|thx|ok|okay|cool|great|nice|bye|good night|good morning|你好|您好|谢谢|多谢|好的|好|嗯|嗯嗯|哈哈|再见|晚安|早安)[\s!.。！~～]*$/iu;

export function detectRewriteTrigger(question: string, priorUserTurns: number): RewriteTrigger {
  // Dates are found first and then taken out, so "this week" is a date, not a "this" reference.
  const { text: dateless, resolved } = absolutizeRelativeDates(question, new Date(0));
  const reasons: string[] = [];
  if (priorUserTurns >= 1 && !SMALL_TALK.test(question)) {
    const ref = findReference(dateless);
    if (ref) reasons.push(ref.form === 'ellipsis' ? 'ellipsis' : ref.form === 'short' ? 'short question' : `reference: "${ref.phrase}"`);
  }
  if (resolved.length > 0) reasons.push(`relative date: "${resolved[0].phrase}"`);
  if (reasons.length > 0) return { needed: true, reason: reasons.join('; ') };
  if (priorUserTurns < 1) return { needed: false, reason: 'first turn' };
  if (SMALL_TALK.test(question)) return { needed: false, reason: 'small talk' };
  return { needed: false, reason: 'standalone' };
}

// ---------------------------------------------------------------------------------------------
// Finding the reference: grammar words only (pronouns, determiners, auxiliaries, prepositions)

/** English closed-class words: articles, pronouns, auxiliaries, prepositions, conjunctions, wh-words. */
const FUNCTION_WORDS = new Set(
  'a an the and or but if of to in on at for with by from as is are was were be been being am i me my mine you your we us our it its this that these those he him his she her they them their what who whom whose which when where why how do does did done can could would should will shall may might must have has had not no nor so than then there here about into onto over under after before since until just also very really ok okay everything something anything nothing everyone someone anyone somebody anybody nobody'.split(
    ' ',
  ),
);
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', '我']);
/** "it" that points at nothing: "is it possible to …", "it's worth …", "what time is it", "how long does it take". */
const EXPLETIVE_IT = [
  /\b(?:is|was|isn't|wasn't) it \w+ (?:to|that|for|if)\b/giu,
  /\bit(?:'s| is| was) \w+ (?:to|that|for|if)\b/giu,
  /\b(?:is|was) it (?:raining|snowing|cold|hot|warm|sunny|windy|late|early)\b/giu,
  /\bwhat time is it\b/giu,
  /\bdo(?:es)? it take\b|\bwill it take\b|\bdid it take\b/giu,
];

function findReference(question: string): Reference | null {
  const ellipsis = findEllipsis(question);
  if (ellipsis?.form === 'ellipsis') return ellipsis;
  return findChineseReference(question) ?? findEnglishReference(question) ?? ellipsis;
}

function findEnglishReference(question: string): Reference | null {
  const pair = /\bthe (former|latter)\b/iu.exec(question);
  if (pair) return { phrase: pair[0], index: pair.index, form: pair[1].toLowerCase() === 'former' ? 'former' : 'latter', kind: 'any' };
  let masked = question;
  for (const pattern of EXPLETIVE_IT) masked = masked.replace(pattern, (m) => m.replace(/\bit\b/iu, '__'));
  const found: Reference[] = [];
  const pronoun = /\b(it|its|they|them|their|he|him|his|she|her|hers)\b/iu.exec(masked);
  // "What did Caroline realise after her race?": a name earlier in the question is what the pronoun points at.
  const namedBefore = (index: number) => capitalisedNamesIn(question, question).some((t) => t.position < index);
  if (pronoun && !namedBefore(pronoun.index)) {
    const word = pronoun[1].toLowerCase();
    const kind = word === 'it' || word === 'its' ? 'thing' : ['they', 'them', 'their'].includes(word) ? 'any' : 'person';
    found.push({ phrase: pronoun[0], index: pronoun.index, form: 'reference', kind });
  }
  for (const m of masked.matchAll(/\b(that|this|these|those)\b/giu)) {
    if (m[1].toLowerCase() === 'that' && !isDemonstrativeThat(masked, m.index ?? 0)) continue;
    found.push({ phrase: m[0], index: m.index ?? 0, form: 'reference', kind: 'any' });
  }
  return found.sort((a, b) => a.index - b.index)[0] ?? null;
}

/**
 * "that" as a demonstrative ("Who wrote that book?", "about that") rather than a conjunction or a
 * relative ("I think that basil grows …", "the film that we saw"), told apart by its neighbours:
 * it ends the clause, or comes first or after a grammar word, or its noun ends the clause.
 */
function isDemonstrativeThat(text: string, index: number): boolean {
  const before = text
    .slice(0, index)
    .match(/(?<![A-Za-z'])([A-Za-z']+)\s*$/u)?.[1]
    ?.toLowerCase();
  const after = text.slice(index + 4).match(/^\s+([A-Za-z'-]+)(\s*[A-Za-z'-]*)/u);
  if (!after) return true; // "that?", "that.", "that, …"
  const next = after[1].toLowerCase();
  if (FUNCTION_WORDS.has(next)) return false; // "that I …", "that the …"
  if (before === undefined || FUNCTION_WORDS.has(before)) return true;
  const following = after[2].trim().toLowerCase();
  return following === '' || FUNCTION_WORDS.has(following);
}

function findChineseReference(question: string): Reference | null {
  const pair = /(前者|后者)/u.exec(question);
  if (pair) return { phrase: pair[0], index: pair.index, form: pair[0] === '前者' ? 'former' : 'latter', kind: 'any' };
  const found: Reference[] = [];
  // 其他/其它 ("other"), 吉他 (guitar), 他人 ("others") are not pronouns.
  const pronoun = /(?<![其吉])(它们|他们|她们|它|他(?![人乡国处])|她)/u.exec(question);
  if (pronoun) {
    const kind = pronoun[1].startsWith('它') ? 'thing' : pronoun[1].length > 1 ? 'any' : 'person';
    found.push({ phrase: pronoun[1], index: pronoun.index, form: 'reference', kind });
  }
  // 这/那 point back wherever they stand (那部电影, 这游戏, 那是); 那么 ("so, then") opens an ellipsis instead.
  const det = /(这|那)(?!么)(位)?/u.exec(question);
  if (det) found.push({ phrase: det[0], index: det.index, form: 'reference', kind: det[2] ? 'person' : 'any' });
  return found.sort((a, b) => a.index - b.index)[0] ?? null;
}

/**
 * Ellipsis ("and then?", "what about Gattaca?", "那北京呢？") or a very short question ("why?", "为什么？").
 * A short question about the user themself ("我叫什么？", "Who am I?") leans on nothing: memory answers it.
 */
function findEllipsis(question: string): Reference | null {
  const text = question.trim();
  const tokens = words(text);
  const cjkCount = [...text].filter(isCjk).length;
  const latinWords = tokens.filter((w) => !isCjk(w[0]));
  const aboutUser = tokens.some((w, i) => FIRST_PERSON.has(w) && !(w === '我' && tokens[i + 1] === '们'));
  const base = { phrase: text, index: 0, kind: 'any' as const };
  if (/^(and|but|so|also|then|or|what about|how about|same)\b/iu.test(text)) return { ...base, form: 'ellipsis' };
  if (/^(那么|还有|然后|而且|另外|所以|可是|但是)/u.test(text) || (cjkCount <= 12 && /呢\s*(?:[？?]\s*)?$/u.test(text)))
    return { ...base, form: 'ellipsis' };
  const short = cjkCount > 0 ? cjkCount <= 5 && latinWords.length <= 1 : latinWords.length > 0 && latinWords.length <= 3;
  return short && !aboutUser ? { ...base, form: 'short' } : null;
}

// ---------------------------------------------------------------------------------------------
// Salient terms of the user's turns

type Term = {
  /** Bare text, for matching: "星际穿越", "Christopher Nolan". */
  text: string;
  /** As written into the query: "《星际穿越》". */
  display: string;
  /** A title or a product (never a person), a person's name (never "it"), or either. */
  kind: 'work' | 'person' | 'either';
  /** Named (title, name, product) rather than a possessive phrase. */
  named: boolean;
  position: number;
};

const CALENDAR_WORDS = new Set(
  'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december today yesterday tomorrow tonight'.split(
    ' ',
  ),
);

/** Titles: 《》「」『』 and short quoted names. */
function titlesIn(text: string): Term[] {
  const out: Term[] = [];
  for (const m of text.matchAll(/《([^》]{1,40})》|「([^」]{1,40})」|『([^』]{1,40})』|“([^”]{1,40})”|"([^"]{1,40})"/gu)) {
    const inner = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]).trim();
    const marked = m[0].startsWith('《') || m[0].startsWith('「') || m[0].startsWith('『');
    // A quoted sentence is a quotation, not a name.
    if (inner && (marked || (words(inner).length <= 6 && !/[.!?。！？]$/u.test(inner)))) {
      out.push({ text: inner, display: marked ? m[0] : inner, kind: 'work', named: true, position: m.index ?? 0 });
    }
  }
  return out;
}

/** Characters that end a transliterated Chinese name: particles, prepositions and punctuation. */
const NOT_IN_NAME = /[的是了在和与由被把给跟说叫也都很就还又对向从为，。！？、\s]/u;

/** Chinese names: transliterations with a middle dot (维姆·文德斯) and introductions (我的室友叫王磊). */
function chineseNamesIn(text: string, segments: Segment[]): Term[] {
  const out: Term[] = [];
  for (const m of text.matchAll(/[\u4e00-\u9fff]{1,8}(?:[·・•][\u4e00-\u9fff]{1,8})+/gu)) {
    const parts = m[0].split(/[·・•]/u);
    const first = [...[...parts[0]].reverse().join('').split(NOT_IN_NAME)[0]].reverse().join('').slice(-4);
    const rest: string[] = [];
    for (const part of parts.slice(1)) {
      // At most three characters after a dot: enough to find the name as a substring, and a verb
      // written right after it ("文德斯导演") is not taken in.
      const piece = part.split(NOT_IN_NAME)[0].slice(0, 3);
      if (piece) rest.push(piece);
      if (piece !== part) break;
    }
    if (!first || rest.length === 0) continue;
    const name = [first, ...rest].join('·');
    out.push({ text: name, display: name, kind: 'person', named: true, position: (m.index ?? 0) + parts[0].length - first.length });
  }
  for (const m of text.matchAll(/(?:叫|名叫|名字是|名字叫)([\u4e00-\u9fff]{2,3})(?=[，。！？,.!?\s]|$)/gu)) {
    // "我叫陈晓" is the user's own name: never what 他/她 points at.
    if (/什么|啥/u.test(m[1]) || /我的?$/u.test(text.slice(0, m.index))) continue;
    out.push({ text: m[1], display: m[1], kind: 'person', named: true, position: (m.index ?? 0) + m[0].length - m[1].length });
  }
  // A product or model with a number (小米14, 流浪地球2; 华为Mate60 is caught by the Latin rule): never a
  // person. Its name is the whole words before the number (流浪+地球), not single characters (了, 看).
  segments.forEach((word, i) => {
    if (!/^\d+$/u.test(word.text)) return;
    let start = i;
    while (start > 0 && /^[\u4e00-\u9fff]{2,}$/u.test(segments[start - 1].text) && word.index - segments[start - 1].index <= 6) start--;
    if (start === i) return;
    const name = segments
      .slice(start, i + 1)
      .map((s) => s.text)
      .join('');
    out.push({ text: name, display: name, kind: 'work', named: true, position: segments[start].index });
  });
  return out;
}

/**
 * The user's own things in Chinese: the noun after 我的 / 我家的 / 我们的 (one segment or 我 + 的). Segmented words, joined
 * while the next is a single character (自行+车, 笔记+本) and stopping at the next whole word (昨天).
 */
function chinesePossessionsIn(segments: Segment[]): Term[] {
  const out: Term[] = [];
  segments.forEach((word, i) => {
    if (!/^我(?:的|家的?|们的)$/u.test(word.text) && !(/^(?:我|我家|我们)$/u.test(word.text) && segments[i + 1]?.text === '的')) return;
    let j = segments[i + 1]?.text === '的' ? i + 2 : i + 1;
    let phrase = '';
    while (
      segments[j] &&
      /^[\u4e00-\u9fff]+$/u.test(segments[j].text) &&
      (phrase.length < 2 || segments[j].text.length === 1) &&
      phrase.length < 4
    ) {
      phrase += segments[j].text;
      j++;
    }
    if (phrase.length >= 2) out.push({ text: phrase, display: phrase, kind: 'either', named: false, position: segments[i + 1].index });
  });
  return out;
}

/** Whether `index` opens a sentence: only spaces, quotes or a bullet between it and the text start or a full stop. */
function isSentenceStart(text: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0 && ' \t"\'“”‘’([*•-'.includes(text[i])) i--;
  return i < 0 || '.!?。！？:;\n'.includes(text[i]);
}

/** A run of capitalised words ("Christopher Nolan", "Lord of the Rings", "iPhone 15 Pro"), numbers included after the first. */
const CAPITALISED_RUN =
  /(?<![\p{Script=Latin}\d])\p{Ll}{0,2}\p{Lu}[\p{L}\p{M}\d'’-]*(?:\s+(?:(?:of|the|de|da|del|van|von|la|le|du|di|der)\s+)*(?:\p{Lu}[\p{L}\p{M}\d'’-]*|\d[\p{L}\d]*(?:[.-][\p{L}\d]+)*))*/gu;

/**
 * Proper nouns and product names: capitalised words not at the start of a sentence. A sentence's
 * first word is a name only when `context` has it capitalised mid-sentence too, or it is the
 * subject of "is/was/has" and never written in lower case; "The" opens a title ("The Matrix").
 */
function capitalisedNamesIn(text: string, context: string): Term[] {
  const out: Term[] = [];
  for (const m of text.matchAll(CAPITALISED_RUN)) {
    let index = m.index ?? 0;
    let parts = m[0].split(/\s+/u);
    const cut = parts.findIndex((p) => /^I(?:['’]\w+)?$/u.test(p)); // "Yesterday I …": "I" ends a name
    if (cut >= 0) parts = parts.slice(0, cut);
    if (parts.length > 1 && isSentenceStart(text, index) && FUNCTION_WORDS.has(parts[0].toLowerCase()) && parts[0] !== 'The') {
      index += m[0].indexOf(parts[1], parts[0].length);
      parts = parts.slice(1);
    }
    parts = parts.map((p) => p.replace(/['’]s$|(?<!['’-])['’-]+$/u, ''));
    if (parts.length === 0 || parts.every((p) => CALENDAR_WORDS.has(p.toLowerCase()) || FUNCTION_WORDS.has(p.toLowerCase()))) continue;
    const name = parts.join(' ');
    if (parts.length === 1 && isSentenceStart(text, index) && !namedAtSentenceStart(name, text.slice(index + name.length), context))
      continue;
    // A name with a number is a product or an edition ("Pixel 8", "Windows 11"), never a person.
    out.push({ text: name, display: name, kind: /\d/u.test(name) ? 'work' : 'either', named: true, position: index });
  }
  return out;
}

function namedAtSentenceStart(word: string, rest: string, context: string): boolean {
  if (new RegExp(`[^.!?\\n\\s]\\s+${escapeRegExp(word)}\\b`, 'u').test(context)) return true;
  const subject = /^\s+(is|was|are|were|has|had)\b/u.test(rest);
  return subject && !new RegExp(`\\b${escapeRegExp(word.toLowerCase())}\\b`, 'u').test(context);
}

/** The user's own things: "my sourdough starter", "our old car" (at most two words, up to a grammar word). */
function possessionsIn(text: string): Term[] {
  const out: Term[] = [];
  for (const m of text.matchAll(/\b(?:[Mm]y|[Oo]ur)\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)/gu)) {
    const kept = m[1].split(/\s+/u);
    const stop = kept.findIndex((w) => FUNCTION_WORDS.has(w));
    const phrase = (stop >= 0 ? kept.slice(0, stop) : kept).join(' ');
    if (phrase)
      out.push({ text: phrase, display: phrase, kind: 'either', named: false, position: (m.index ?? 0) + m[0].length - m[1].length });
  }
  return out;
}

function termsIn(text: string, context: string): Term[] {
  const segments = segmentWords(text);
  const named = [...titlesIn(text), ...chineseNamesIn(text, segments), ...capitalisedNamesIn(text, context)];
  const inNamed = (s: string) =>
    named.some((n) => n.text.toLowerCase().includes(s.toLowerCase()) || s.toLowerCase().includes(n.text.toLowerCase()));
  return [...named, ...[...possessionsIn(text), ...chinesePossessionsIn(segments)].filter((p) => !inNamed(p.text))];
}

/** Whether a term can be what the reference points at: "he" is never a title, "it" never a person's name. */
function fits(term: Term, ref: Reference): boolean {
  if (ref.kind === 'person') return term.kind !== 'work' && term.named;
  if (ref.kind === 'thing') return term.kind !== 'person';
  return true;
}

/**
 * The terms to carry, newest first: the user's latest turn before older ones, and within a turn the
 * later mention first. Named things come before possessions of the same turn; terms the question
 * already names are skipped. "the former/latter" takes one of the two last named in one turn.
 */
function salientTerms(ref: Reference, question: string, userTurns: string[]): Term[] {
  const context = userTurns.join('\n');
  const q = question.toLowerCase();
  const byTurn = userTurns.map((turn) => termsIn(turn, context).filter((t) => !q.includes(t.text.toLowerCase()) && fits(t, ref)));
  if (ref.form === 'former' || ref.form === 'latter') {
    const pair = byTurn
      .map((terms) => distinct(terms.filter((t) => t.named).sort((a, b) => a.position - b.position)))
      .reverse()
      .find((named) => named.length >= 2);
    return pair ? [ref.form === 'former' ? pair[pair.length - 2] : pair[pair.length - 1]] : [];
  }
  const newestFirst = byTurn
    .reverse()
    .flatMap((terms) => terms.sort((a, b) => Number(b.named) - Number(a.named) || b.position - a.position));
  return distinct(newestFirst).slice(0, MAX_TERMS);
}

function distinct(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((t) => !seen.has(t.text.toLowerCase()) && seen.add(t.text.toLowerCase()));
}

// ---------------------------------------------------------------------------------------------
// Rewrite

export function rewriteOffline(
  question: string,
  recent: RecentTurn[],
  now: Date,
): { query: string; terms: string[]; datesResolved: string[] } {
  const { text, resolved } = absolutizeRelativeDates(question, now);
  const datesResolved = resolved.map((r) => `${r.phrase} → ${r.date}`);
  const ref = findReference(text);
  const userTurns = recent.filter((t) => t.role === 'user').map((t) => t.content);
  const terms = ref ? salientTerms(ref, text, userTurns) : [];
  const carried = terms.length > 0 ? terms.map((t) => t.display) : ref ? turnLeanedOn(ref, userTurns) : [];
  if (carried.length === 0) return { query: text, terms: [], datesResolved };
  const zh = hasCjk(text);
  const listed = carried.join(zh ? '、' : ', ');
  return {
    query: zh ? `${text}（${listed}）` : `${text} (${listed})`,
    terms: terms.length > 0 ? terms.map((t) => t.text) : carried,
    datesResolved,
  };
}

/**
 * Nothing named to carry (a title without marks, a place, a name no rule knows, a thing in lower
 * case): the words of the turn the question leans on go with it, so that what it points at is
 * searched for. The former/latter choose between named things only; "he" can point at no question
 * and at no self-introduction: those are not carried.
 */
function turnLeanedOn(ref: Reference, userTurns: string[]): string[] {
  if (ref.form === 'former' || ref.form === 'latter') return [];
  const turn = latestStatement(userTurns);
  if (turn === '') return [];
  if (ref.kind === 'person' && (/[?？]\s*$/u.test(turn) || SELF_INTRODUCTION.test(turn))) return [];
  return [turn];
}

/** The user saying who they are: never what "he" or 她 points at. */
const SELF_INTRODUCTION = /\b(?:[Mm]y name is|[Cc]all me|I am \p{Lu}|I'm \p{Lu})|我叫|我是|我的名字|本人/u;

/** Characters of a turn carried in place of terms: its last sentences, up to about this many. */
const CARRIED_CHARS = 80;

/** The user's latest turn that says something (not small talk), its last sentences up to CARRIED_CHARS. */
function latestStatement(userTurns: string[]): string {
  const turn = [...userTurns].reverse().find((t) => t.trim() !== '' && !SMALL_TALK.test(t)) ?? '';
  const sentences =
    turn
      .match(/[^.!?。！？\n]+[.!?。！？]*/gu)
      ?.map((x) => x.trim())
      .filter(Boolean) ?? [];
  let kept = '';
  for (const sentence of sentences.reverse()) {
    if (kept !== '' && sentence.length + kept.length > CARRIED_CHARS) break;
    kept = kept === '' ? sentence : `${sentence} ${kept}`;
  }
  return kept.length > CARRIED_CHARS * 2 ? kept.slice(-CARRIED_CHARS * 2) : kept;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
