/**
 * Offline retrieval rewrite: decide whether a question leans on earlier turns, and if so turn it into
 * a standalone query by naming what "it" / 它 / "that director" points at. Retrieval only: the
 * message shown and stored never changes. Pure functions, English and Chinese.
 *
 * What a reference points at is looked for in the user's own earlier turns only. Assistant replies are
 * often boilerplate (the offline model opens every reply with the same sentence and echoes lines back)
 * and name things the user never brought up; when the user's turns hold nothing that fits, nothing
 * is added.
 */
import { contentFeatures, isCjk, words } from '@/lib/llm/text-features';
import { absolutizeRelativeDates } from './relative-dates';

export type RewriteTrigger = { needed: boolean; reason: string };
export type RecentTurn = { role: 'user' | 'assistant'; content: string };

/** What the question points back with, and what kind of thing it expects. */
type RefKind = 'person' | 'work' | 'thing' | 'any';
type Reference = {
  phrase: string;
  index: number;
  /** pronoun: replace it; possessive: replace with "X's"; determiner: name X next to it; former/latter: pick from a pair; ellipsis/short: append X. */
  form: 'pronoun' | 'possessive' | 'determiner' | 'former' | 'latter' | 'ellipsis' | 'short';
  kind: RefKind;
  lang: 'en' | 'zh';
  /** For an English determiner, the end of its noun ("that director|"), where the entity goes. */
  nounEnd?: number;
};

// ---------------------------------------------------------------------------------------------
// Trigger

const SMALL_TALK = /^\s*(hi|hello|hey|thanks|thank you|thx|ok|okay|cool|great|nice|bye|good night|good morning|你好|您好|谢谢|多谢|好的|好|嗯|嗯嗯|哈哈|再见|晚安|早安)[\s!.。！~～]*$/iu;

export function detectRewriteTrigger(question: string, priorUserTurns: number): RewriteTrigger {
  // Dates are found first and then taken out, so "this week" is a date, not a "this" reference.
  const { text: dateless, resolved } = absolutizeRelativeDates(question, new Date(0));
  const dateReason = resolved.length > 0 ? `relative date: "${resolved[0].phrase}"` : null;
  const reasons: string[] = [];
  if (priorUserTurns >= 1 && !SMALL_TALK.test(question)) {
    const ref = findReference(dateless);
    if (ref) reasons.push(ref.form === 'ellipsis' || ref.form === 'short' ? referenceLabel(ref) : `reference: "${ref.phrase}"`);
  }
  if (dateReason) reasons.push(dateReason);
  if (reasons.length > 0) return { needed: true, reason: reasons.join('; ') };
  if (priorUserTurns < 1) return { needed: false, reason: 'first turn' };
  if (SMALL_TALK.test(question)) return { needed: false, reason: 'small talk' };
  return { needed: false, reason: 'standalone' };
}

function referenceLabel(ref: Reference): string {
  return ref.form === 'short' ? 'short question' : 'ellipsis';
}

// ---------------------------------------------------------------------------------------------
// Finding the reference in the question

const PERSON_NOUNS = new Set(
  'director actor actress author writer singer composer artist guy man woman person player teacher doctor friend scientist painter musician chef president coach poet host'.split(' '),
);
const WORK_NOUNS = new Set('film movie book novel song show series album game play episode documentary poem painting track podcast'.split(' '));
/** Words in an "it" question that say "it" is a work: "When was it released?", "Who directed it?". */
const WORK_CUES_EN = /\b(released?|directed|director|wrote|written|author|sequel|plot|ending|soundtrack|score|cast|starring|starred|published|premiered?|episodes?|seasons?|chapters?|trailer|box office|watch|read|listen)\b/iu;
const WORK_CUES_ZH = /(上映|导演|主演|拍的|拍摄|出版|作者|剧情|结局|配乐|续集|票房|演员|首映|写的|唱的|播出)/u;
const PERSON_NOUNS_ZH = /^(人|导演|演员|作者|歌手|老师|医生|朋友|作家|科学家|画家|音乐家|厨师|同事|教练)/u;
const WORK_NOUNS_ZH = /^(电影|片子|书|小说|歌|剧|电视剧|节目|游戏|专辑|作品|动画|纪录片)/u;

/** "it" that points at nothing: "what time is it", "is it possible to …", "how long does it take to …". */
const DUMMY_IT = [
  /\bwhat time is it\b/giu,
  /\b(is|was) it (possible|ok|okay|true|safe|normal|necessary|hard|easy|healthy|legal|rude|too late|too early|raining|snowing|cold|hot|warm|sunny|windy)\b/giu,
  /\b(is|was) it (better|worth|good|bad|best|wise) to\b/giu,
  /\bit(?:'s| is| was) (possible|ok|okay|true|worth|better|safe|normal|necessary|hard|easy|raining|snowing|cold|hot|warm|sunny|windy|a good idea|time)\b/giu,
  /\b(does|did|will|would) it take\b/giu,
];
/** Words after which "that" is a demonstrative (was that / about that / like that), not "that" the conjunction. */
const THAT_AFTER = new Set(
  'was is were are about of for with like from to do did does remember mean called at in on watch watched read see saw recommend and what which who whom than by into after before'.split(' '),
);
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', '我']);
const FUNCTION_WORDS = new Set(
  'a an the and or but if of to in on at for with by from as is are was were be been am i me my you your we our it its this that these those he she they them his her their what who whom which when where why how do does did can could would should will shall may might have has had not no so than then there here about into over just also very really please tell say said talked earlier again one ones'.split(
    ' ',
  ),
);

function findReference(question: string): Reference | null {
  return findChineseReference(question) ?? findEnglishReference(question) ?? findEllipsis(question);
}

function findEnglishReference(question: string): Reference | null {
  const workCue = WORK_CUES_EN.test(question);
  const pair = /\bthe (former|latter)\b/iu.exec(question);
  if (pair) return { phrase: pair[0], index: pair.index, form: pair[1].toLowerCase() === 'former' ? 'former' : 'latter', kind: 'any', lang: 'en' };

  const one = /\b(?:that|this|the) one\b/iu.exec(question);
  if (one) return { phrase: one[0], index: one.index, form: 'pronoun', kind: workCue ? 'work' : 'thing', lang: 'en' };

  let masked = question;
  for (const pattern of DUMMY_IT) masked = masked.replace(pattern, (m) => m.replace(/\bit\b/iu, '__'));
  const candidates: Reference[] = [];

  const pronoun = /\b(it|its|they|them|their|he|him|his|she|her|hers)\b/iu.exec(masked);
  if (pronoun) {
    const word = pronoun[1].toLowerCase();
    const next = masked.slice(pronoun.index + pronoun[0].length).match(/^\s+([a-z]+)/u)?.[1];
    const herPossessive = word === 'her' && !!next && !FUNCTION_WORDS.has(next);
    const possessive = ['its', 'their', 'his'].includes(word) || herPossessive;
    const kind: RefKind = ['it', 'its'].includes(word) ? (workCue ? 'work' : 'thing') : ['they', 'them', 'their'].includes(word) ? 'any' : 'person';
    candidates.push({ phrase: pronoun[0], index: pronoun.index, form: possessive ? 'possessive' : 'pronoun', kind, lang: 'en' });
  }

  for (const m of masked.matchAll(/\b(that|this|these|those)\b/giu)) {
    const index = m.index ?? 0;
    const word = m[1].toLowerCase();
    const before = masked.slice(0, index).match(/([A-Za-z']+)\s*$/u)?.[1]?.toLowerCase();
    const rest = masked.slice(index + m[0].length);
    const noun = rest.match(/^\s+([A-Za-z-]+)/u);
    const nounWord = noun?.[1].toLowerCase();
    const endsHere = /^\s*([?.!,;]|$)/u.test(rest);
    if (word === 'that' && !(before === undefined || THAT_AFTER.has(before) || endsHere)) continue; // "I think that …", "the book that …"
    if (noun && nounWord && !FUNCTION_WORDS.has(nounWord)) {
      const kind: RefKind = PERSON_NOUNS.has(nounWord) ? 'person' : WORK_NOUNS.has(nounWord) || workCue ? 'work' : 'thing';
      candidates.push({ phrase: `${m[1]} ${noun[1]}`, index, form: 'determiner', kind, lang: 'en', nounEnd: index + m[0].length + noun[0].length });
    } else {
      candidates.push({ phrase: m[1], index, form: 'pronoun', kind: workCue ? 'work' : 'thing', lang: 'en' });
    }
  }
  candidates.sort((a, b) => a.index - b.index);
  return candidates[0] ?? null;
}

function findChineseReference(question: string): Reference | null {
  const workCue = WORK_CUES_ZH.test(question);
  const pair = /(前者|后者)/u.exec(question);
  if (pair) return { phrase: pair[0], index: pair.index, form: pair[0] === '前者' ? 'former' : 'latter', kind: 'any', lang: 'zh' };

  const candidates: Reference[] = [];
  // 其他/其它 ("other"), 吉他 (guitar), 他人 ("others") are not pronouns.
  const pronoun = /(?<![其吉])(它们|他们|她们|它|他(?![人乡国处])|她)/u.exec(question);
  if (pronoun) {
    const kind: RefKind = pronoun[1].startsWith('它') ? (workCue ? 'work' : 'thing') : pronoun[1].length > 1 ? 'any' : 'person';
    candidates.push({ phrase: pronoun[1], index: pronoun.index, form: 'pronoun', kind, lang: 'zh' });
  }
  const det = /(这|那)(个|部|位|本|首|家|件|种|只|款|条|篇|座|些|张|所)/u.exec(question);
  if (det) {
    const rest = question.slice(det.index + det[0].length);
    const kind: RefKind =
      det[2] === '位' || PERSON_NOUNS_ZH.test(rest) ? 'person' : ['部', '本', '首'].includes(det[2]) || WORK_NOUNS_ZH.test(rest) || workCue ? 'work' : 'thing';
    // "那个是什么" stands alone (a pronoun); "那部电影" names a noun after it (a determiner).
    const standsAlone = rest === '' || /^[是的呢吗啊吧有在怎为多还也就？?，,。！!]/u.test(rest);
    candidates.push({ phrase: det[0], index: det.index, form: standsAlone ? 'pronoun' : 'determiner', kind, lang: 'zh' });
  }
  const thisIs = /(?<![就还])(这|那)(?=是)/u.exec(question);
  if (thisIs) candidates.push({ phrase: thisIs[1], index: thisIs.index, form: 'pronoun', kind: workCue ? 'work' : 'thing', lang: 'zh' });
  candidates.sort((a, b) => a.index - b.index);
  return candidates[0] ?? null;
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
  const lang = cjkCount > 0 ? 'zh' : 'en';
  const base = { phrase: text, index: 0, kind: 'any' as const, lang: lang as 'en' | 'zh' };
  if (/^(and|but|so|also|then|or|what about|how about|same)\b/iu.test(text)) return { ...base, form: 'ellipsis' };
  if (/^(那么?|还有|然后|而且|另外|所以|可是|但是)/u.test(text) || (cjkCount <= 12 && /呢\s*[？?]?\s*$/u.test(text))) return { ...base, form: 'ellipsis' };
  const short = cjkCount > 0 ? cjkCount <= 5 && latinWords.length <= 1 : latinWords.length > 0 && latinWords.length <= 3;
  return short && !aboutUser ? { ...base, form: 'short' } : null;
}

// ---------------------------------------------------------------------------------------------
// Entities in the recent turns

type EntityKind = 'title' | 'name' | 'phrase';
type Entity = {
  /** Bare text used for matching and returned as `entity`: "星际穿越", "Christopher Nolan". */
  text: string;
  /** How it is written into the query: "《星际穿越》". */
  display: string;
  kind: EntityKind;
  person: boolean;
  work: boolean;
  position: number;
};

const SENTENCE_STARTERS = new Set(
  (
    "i i'm i've i'd i'll you you're your we we're our he she it it's its they they're their my me this that these those the a an and but or so if then when where what what's who whom whose which why how how's is are was were do does did don't can can't could would should will shall may might must have has had yes no not hi hello hey thanks thank ok okay sure great good nice well oh ah wow also just here here's there there's let let's please sorry yeah yep hmm maybe actually really first second next finally however still yesterday today tomorrow tonight last now one two in on at for with from to of by as after before since while because although though try keep make use add put take get go see check remember note consider start avoid set mix boil store place cut give tell find look think all some any every each most many much more few both either neither other another such absolutely definitely certainly instead usually generally typically"
  ).split(' '),
);
const CALENDAR_WORDS = new Set(
  'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december i'.split(' '),
);
const WORK_CONTEXT_BEFORE = /\b(watch|watched|rewatched|rewatch|watching|saw|see|seen|read|reading|reread|finished|listen to|listened to|listening to|played|playing|favou?rite is|called|titled|about|love|loved|like|liked|enjoyed|recommend|recommended)\s+$/iu;
const PLACE_CONTEXT_BEFORE = /\b(in|to|from|at|visit|visited|visiting|near|live in|moved to)\s+$/iu;
const VAGUE_NOUNS = new Set('lot bit few little way thing things kind sort question idea time times day week moment while one ones'.split(' '));
const CJK_STOP_CHARS = /[的了是我你他她它们吗呢吧啊在和与就都也很这那什么怎么哪个一不有要会能可以还好说]/u;

/** Titles: 《》「」『』 and short quoted names. */
function titlesIn(text: string): Entity[] {
  const out: Entity[] = [];
  for (const m of text.matchAll(/《([^》]{1,40})》|「([^」]{1,40})」|『([^』]{1,40})』/gu)) {
    const inner = (m[1] ?? m[2] ?? m[3]).trim();
    if (inner) out.push({ text: inner, display: m[0], kind: 'title', person: false, work: true, position: m.index ?? 0 });
  }
  for (const m of text.matchAll(/“([^”]{1,40})”|"([^"]{1,40})"/gu)) {
    const inner = (m[1] ?? m[2]).trim();
    const short = words(inner).length <= 6 && !/[.!?。！？]$/u.test(inner);
    if (inner && short) out.push({ text: inner, display: inner, kind: 'title', person: false, work: true, position: m.index ?? 0 });
  }
  return out;
}

/** Characters that end a transliterated name: "的配乐是汉斯·季默写的" holds the name 汉斯·季默. */
const NOT_IN_NAME = /[的是了在和与由被把给跟说叫请写唱演拍导主也都很就还又对向从为，。！？、\s]/u;

/** Chinese names: transliterations with a middle dot (汉斯·季默) and self-introductions (我叫张三). */
function chineseNamesIn(text: string): Entity[] {
  const out: Entity[] = [];
  for (const m of text.matchAll(/[\u4e00-\u9fff]{1,8}(?:[·・•][\u4e00-\u9fff]{1,8})+/gu)) {
    const parts = m[0].split(/[·・•]/u);
    const head = [...parts[0]].reverse().join('').split(NOT_IN_NAME)[0];
    const first = [...head].reverse().join('').slice(-4);
    const rest: string[] = [];
    for (const part of parts.slice(1)) {
      const piece = part.split(NOT_IN_NAME)[0].slice(0, 4);
      if (piece) rest.push(piece);
      if (piece !== part) break;
    }
    if (!first || rest.length === 0) continue;
    const name = [first, ...rest].join('·');
    out.push({ text: name, display: name, kind: 'name', person: true, work: false, position: (m.index ?? 0) + parts[0].length - first.length });
  }
  for (const m of text.matchAll(/(?:叫|名叫|名字是|名字叫)([\u4e00-\u9fff]{2,3})(?=[，。！？,.!?\s]|$)/gu)) {
    // "我叫陈晓" is the user's own name: never what 他/她 points at.
    if (/什么|啥/u.test(m[1]) || /我的?$/u.test(text.slice(0, m.index))) continue;
    out.push({ text: m[1], display: m[1], kind: 'name', person: true, work: false, position: (m.index ?? 0) + m[0].length - m[1].length });
  }
  return out;
}

/** Whether `index` opens a sentence: only spaces, quotes or a bullet between it and the text start or a full stop. */
function isSentenceStart(text: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0 && ' \t"\'“”‘’([*•-'.includes(text[i])) i--;
  return i < 0 || '.!?。！？:;\n'.includes(text[i]);
}

/**
 * Capitalised names ("Christopher Nolan", "The Matrix", "Lord of the Rings"). A capitalised word at
 * the start of a sentence is only a name when it is not a common sentence opener and it is seen
 * capitalised mid-sentence somewhere in `context`, or it is the subject of "is/was/has".
 */
function capitalisedNamesIn(text: string, context: string): Entity[] {
  const out: Entity[] = [];
  const verdicts = new Map<string, boolean>();
  const run = /\p{Lu}[\p{L}\p{M}'’-]*(?:\s+(?:(?:of|the|de|da|del|van|von|la|le|du|di|der)\s+)*\p{Lu}[\p{L}\p{M}'’-]*)*/gu;
  for (const m of text.matchAll(run)) {
    let index = m.index ?? 0;
    let parts = m[0].split(/\s+/u);
    const initial = isSentenceStart(text, index);
    if (initial && SENTENCE_STARTERS.has(parts[0].toLowerCase()) && !(parts[0] === 'The' && parts.length > 1)) {
      index += parts[0].length + (m[0].slice(parts[0].length).match(/^\s+/u)?.[0].length ?? 0);
      parts = parts.slice(1);
    }
    parts = parts.map((p) => p.replace(/['’]s$|['’-]+$/u, ''));
    if (parts.length === 0 || parts.every((p) => CALENDAR_WORDS.has(p.toLowerCase()))) continue;
    const name = parts.join(' ');
    if (parts.length === 1 && isSentenceStart(text, index)) {
      const subject = /^\s+(is|was|are|were|has|had)\b/u.test(text.slice(index + name.length, index + name.length + 8));
      const key = `${name}|${subject}`;
      if (!verdicts.has(key)) {
        const seenMidSentence = new RegExp(`[^.!?\\n]\\s+${escapeRegExp(name)}\\b`, 'u').test(context);
        const usedLowercase = new RegExp(`\\b${escapeRegExp(name.toLowerCase())}\\b`, 'u').test(context);
        verdicts.set(key, seenMidSentence || (subject && !usedLowercase && !SENTENCE_STARTERS.has(name.toLowerCase())));
      }
      if (!verdicts.get(key)) continue;
    }
    const before = text.slice(Math.max(0, index - 40), index);
    const work = /^The\s/u.test(name) || / (of|the) /u.test(name) || WORK_CONTEXT_BEFORE.test(before);
    const place = PLACE_CONTEXT_BEFORE.test(before);
    const person = !work && !place && parts.length >= 2 && parts.length <= 3 && parts.every((p) => /^\p{Lu}\p{Ll}/u.test(p));
    out.push({ text: name, display: name, kind: 'name', person, work, position: index });
  }
  return out;
}

/** English noun phrases after a determiner: "a glass of water", "My sourdough starter". */
function nounPhrasesIn(text: string): Entity[] {
  const out: Entity[] = [];
  const pattern = /\b(?:[Tt]he|[Aa]n?|[Mm]y|[Yy]our|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er|[Ii]ts|[Ss]ome)\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?(?:\s+of\s+[a-z][a-z-]+)?)/gu;
  for (const m of text.matchAll(pattern)) {
    const kept: string[] = [];
    for (const w of m[1].split(/\s+/u)) {
      if (FUNCTION_WORDS.has(w) && !(w === 'of' && kept.length > 0)) break;
      kept.push(w);
    }
    while (kept.length > 0 && FUNCTION_WORDS.has(kept[kept.length - 1])) kept.pop();
    const phrase = kept.join(' ');
    if (!phrase || VAGUE_NOUNS.has(kept[kept.length - 1]) || SENTENCE_STARTERS.has(kept[0])) continue;
    out.push({ text: phrase, display: phrase, kind: 'phrase', person: false, work: false, position: (m.index ?? 0) + m[0].length - m[1].length });
  }
  return out;
}

/** Topic words: a content word (English) or CJK pair that comes back in two or more of the recent turns. */
function topicWords(turns: string[]): Set<string> {
  const seen = new Map<string, number>();
  for (const turn of turns) {
    const keys = new Set<string>();
    for (const m of turn.matchAll(/\b[a-z][a-z-]{3,}\b/gu)) if (!FUNCTION_WORDS.has(m[0]) && !SENTENCE_STARTERS.has(m[0]) && !VAGUE_NOUNS.has(m[0])) keys.add(m[0]);
    const chars = [...turn];
    for (let i = 0; i + 1 < chars.length; i++) {
      const pair = chars[i] + chars[i + 1];
      if (isCjk(chars[i]) && isCjk(chars[i + 1]) && !CJK_STOP_CHARS.test(pair)) keys.add(pair);
    }
    for (const key of keys) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, count]) => count >= 2).map(([key]) => key));
}

function entitiesIn(text: string, context: string, topics: Set<string>): Entity[] {
  const named = [...titlesIn(text), ...chineseNamesIn(text), ...capitalisedNamesIn(text, context)];
  const namedText = [...new Set(named.map((e) => e.text.toLowerCase()))].join('\u0000');
  const inNamed = (s: string) => namedText.includes(s.toLowerCase());
  const phrases = nounPhrasesIn(text).filter((e) => !inNamed(e.text));
  const phraseText = phrases.map((p) => p.text).join('\u0000');
  for (const topic of topics) {
    const index = isCjk(topic[0]) ? text.lastIndexOf(topic) : text.search(new RegExp(`\\b${escapeRegExp(topic)}\\b`, 'u'));
    if (index >= 0 && !inNamed(topic) && !phraseText.includes(topic)) {
      phrases.push({ text: topic, display: topic, kind: 'phrase', person: false, work: false, position: index });
    }
  }
  // A noun phrase that is a topic word is a topic too: "a glass of water" is not, "basil" is.
  return [...named, ...phrases.map((p) => ({ ...p, topic: topics.has(p.text) || p.text.split(' ').some((w) => topics.has(w)) }))];
}

// ---------------------------------------------------------------------------------------------
// Salience
//
// Candidates are the entities of the user's turns. Each mention gets
//   recency     user-turn number (oldest 0) + a hair for being later in its turn: the most recent
//               mention wins when nothing else differs;
//   + named     2 for a title (《》, quotes), 1.5 for a capitalised or Chinese name, 0 for a noun phrase
//               (+1 when it is a topic word repeated across turns): what people refer back to are named
//               things;
//   + fit       +3 when its type fits the reference (他/"that director" → a person; 它/"it" with
//               released/上映 → a work); a clear misfit (a person for "it was released", a film for "that
//               director") is never picked;
//   + context   +3 when the mention's sentence shares a content word with the question: "that director
//               I mentioned" → the name next to "directed", even when another person came up later.
// A mention from before the user last changed topic (their latest turn that leans on nothing earlier)
// needs evidence, a fit or shared words: a plain "it" after "How do I keep basil fresh?" is not the
// film of the turn before. The highest score wins; entities already named in the question are skipped.

type Mention = Entity & { turn: number; topic?: boolean; sentence: string };

function fit(m: Mention, ref: Reference): number {
  if (ref.kind === 'person') return m.person ? 3 : m.work || m.kind === 'phrase' ? -Infinity : 0;
  if (ref.kind === 'work') return m.work ? 3 : m.person ? -Infinity : m.kind === 'phrase' ? -1 : 0;
  return ref.kind === 'thing' && m.person ? -Infinity : 0;
}

/** Content words (and CJK pairs without function characters) of the question, for the context bonus. */
function matchFeatures(text: string): Set<string> {
  return new Set(contentFeatures(text).filter((f) => (isCjk(f[0]) ? f.length === 2 && !CJK_STOP_CHARS.test(f) : f.length > 2)));
}

function sharedFeatures(sentence: string, entityText: string, questionFeatures: Set<string>): boolean {
  const own = matchFeatures(entityText);
  return [...matchFeatures(sentence)].some((f) => questionFeatures.has(f) && !own.has(f));
}

/** The sentence of `text` around `position` (looking at most 300 characters either way). */
function sentenceAround(text: string, position: number): string {
  const from = Math.max(0, position - 300);
  const window = text.slice(from, position + 300);
  const at = position - from;
  const start = Math.max(...['.', '!', '?', '。', '！', '？', '\n'].map((c) => window.lastIndexOf(c, at - 1))) + 1;
  const ends = ['. ', '! ', '? ', '。', '！', '？', '\n'].map((c) => window.indexOf(c, at)).filter((i) => i >= 0);
  return window.slice(start, ends.length > 0 ? Math.min(...ends) + 1 : window.length);
}

function mentionsOf(turns: string[]): Mention[] {
  const context = turns.join('\n');
  const topics = topicWords(turns);
  return turns.flatMap((turn, i) => entitiesIn(turn, context, topics).map((e) => ({ ...e, turn: i, sentence: sentenceAround(turn, e.position) })));
}

/** The user's latest turn that leans on nothing earlier (no reference, no ellipsis): where the topic may have changed. */
function topicStart(turns: string[]): number {
  for (let t = turns.length - 1; t >= 0; t--) if (!findReference(absolutizeRelativeDates(turns[t], new Date(0)).text)) return t;
  return 0;
}

function pickEntity(ref: Reference, question: string, turns: string[]): Mention | undefined {
  const q = question.toLowerCase();
  const mentions = mentionsOf(turns).filter((m) => !q.includes(m.text.toLowerCase()));
  if (ref.form === 'former' || ref.form === 'latter') {
    // The last turn that names two things; "the former" is the earlier of its last two.
    for (let t = turns.length - 1; t >= 0; t--) {
      const named = distinct(mentions.filter((m) => m.turn === t && m.kind !== 'phrase').sort((a, b) => a.position - b.position));
      if (named.length >= 2) return ref.form === 'former' ? named[named.length - 2] : named[named.length - 1];
    }
    return undefined;
  }
  const questionFeatures = matchFeatures(question);
  const start = topicStart(turns);
  let best: Mention | undefined;
  let bestScore = -Infinity;
  for (const m of mentions) {
    const typeFit = fit(m, ref);
    const context = sharedFeatures(m.sentence, m.text, questionFeatures) ? 3 : 0;
    if (m.turn < start && typeFit <= 0 && context === 0) continue;
    const named = m.kind === 'title' ? 2 : m.kind === 'name' ? 1.5 : m.topic ? 1 : 0;
    const s = m.turn + Math.min(m.position, 999) / 1000 + named + typeFit + context;
    if (s > bestScore) [best, bestScore] = [m, s];
  }
  return best;
}

function distinct(mentions: Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => !seen.has(m.text) && seen.add(m.text));
}

// ---------------------------------------------------------------------------------------------
// Rewrite

export function rewriteOffline(question: string, recent: RecentTurn[], now: Date): { query: string; entity?: string; datesResolved: string[] } {
  const { text, resolved } = absolutizeRelativeDates(question, now);
  const datesResolved = resolved.map((r) => `${r.phrase} → ${r.date}`);
  const ref = findReference(text);
  const userTurns = recent.filter((t) => t.role === 'user').map((t) => t.content);
  const entity = ref ? pickEntity(ref, text, userTurns) : undefined;
  if (!ref || !entity) return { query: text, datesResolved };
  return { query: substitute(text, ref, entity), entity: entity.text, datesResolved };
}

function substitute(text: string, ref: Reference, entity: Entity): string {
  const before = text.slice(0, ref.index);
  const after = text.slice(ref.index + ref.phrase.length);
  switch (ref.form) {
    case 'pronoun':
    case 'former':
    case 'latter':
      return before + entity.display + after;
    case 'possessive':
      return `${before}${entity.display}'s${after}`;
    case 'determiner':
      if (ref.lang === 'zh') return before + entity.display + ref.phrase + after; // 《星际穿越》那部电影
      return `${text.slice(0, ref.nounEnd)} (${entity.display})${text.slice(ref.nounEnd)}`; // that director (Christopher Nolan)
    default:
      return ref.lang === 'zh' ? `${text}（${entity.display}）` : `${text} (${entity.display})`;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
