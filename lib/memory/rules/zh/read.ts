/** Reading Chinese clauses: splitting, lead-ins, questions and requests, and the value helpers the slot patterns share. */
import { tagged } from '@/lib/text/jieba';
import { segmentWords } from '@/lib/text/search-terms';
import { findDates, saysWhen } from '../relative-dates';
import { ABOUT_SOMEONE_ELSE } from './slots';

/** Words that place a statement in the present: taken out with the dates before the slot patterns read a clause. */
// How long a state has held, said vaguely (好多年了), says it holds now as much as 现在 does: 吃素好多年了 is 吃素.
export const PRESENT_ZH =
  /现在|目前|如今|以后|今后|从此|最近|这些天|这几天|近来|这段时间|近期|眼下|(?:(?:好|很|这么)多|好几)年了?|多年来?/gu;

const CONNECTOR = '(?:但是|但|不过|可是|而且|并且|所以|因此|因为|另外|还有|同时|然后)';
// A split without a comma starts where its blanks do, so a run of blanks is not read again from each blank.
const SPLIT = new RegExp(
  `[，,、]\\s*${CONNECTOR}(?=我)|(?<!\\s)\\s*${CONNECTOR}(?=我)|[，,]\\s*(?=我|现在|目前|以前|以后|之后|后来|从此|${CONNECTOR}|住|在|有|喜欢|爱|讨厌|来自|养|对|做|当|搬|打算|计划|准备|也|还|又|偶尔|经常|每天|平时|吃|喝)`,
  'u',
);

/** A clause without its own subject borrows 我 only when the sentence's first clause is the user's (我妈妈…，在医院工作 is not). */
export function splitClauses(sentence: string): string[] {
  const parts = sentence
    .split(SPLIT)
    .flatMap(splitBeforeDates)
    .map((part) => stripLead(part.trim()))
    .filter(Boolean);
  // 上个月从小米离职了, 终于搬到苏州了: a statement that opens with its verb, after when and how, has dropped its subject, the
  // speaker (a request that does, 给我推荐…, its listener's).
  if (parts[0] && dropsSubject(parts[0]) && !asks(parts[0])) parts[0] = `我${parts[0]}`;
  const first = parts[0]?.replace(PRESENT_ZH, '') ?? '';
  // 公司把我调到长沙了，现在住在…: a sentence in which something is done to the user goes on about the user.
  const mine = (/^我/u.test(first) && !ABOUT_SOMEONE_ELSE.test(first)) || /[把让派调送]我/u.test(first);
  return parts.flatMap((clause, index) => {
    if (index === 0 || /^我/u.test(clause)) return [clause];
    return mine ? [`我${clause}`] : [];
  });
}

const leadingDate = (text: string) => findDates(text, new Date(0)).find((d) => d.index === 0);
const opensWithDate = (text: string) => leadingDate(text) !== undefined;

/**
 * A clause that opens with a date, or, past words of time or manner (jieba's t, f, d, l), with a verb or a preposition
 * (终于/d 搬/v 到/v 苏州, 最近/f 迷上/v 了 攀岩, 周末/t 去/v 爬山): no one is said to do it but the speaker. One that opens
 * with a noun has its subject (天气/n 太热了, 猫咪/n 搬到了新家), as has one with a pronoun.
 */
function dropsSubject(clause: string): boolean {
  const date = leadingDate(clause);
  const rest = date ? clause.slice(date.length).replace(/^(?:起|开始|以来|初|底)/u, '') : clause;
  if (/^(?:\P{Script=Han}|[我他她它你咱]|大家)/u.test(rest)) return false;
  // After a date, whatever comes first is taken for the verb (从小米离职: jieba cuts 从小 there).
  if (date) return true;
  const first = tagged(rest).find((w) => !/^[tfd]|^l$/.test(w.tag));
  return first !== undefined && (first.tag.startsWith('v') || first.tag === 'p') && first.word !== '是';
}

/** A comma before a date starts a clause of its own: …离职了，下周一去… */
function splitBeforeDates(part: string): string[] {
  const out = [''];
  for (const piece of part.split(/(?<=[，,])/u)) {
    if (out[out.length - 1] && opensWithDate(piece)) out.push(piece);
    else out[out.length - 1] += piece;
  }
  return out;
}

const LEADING_PUNCTUATION = /^[\s,，、"'“”‘’()（）:：-]+/u;
// From where the run starts only, so a text of punctuation is not read again from each of its characters.
const TRAILING_PUNCTUATION = /(?<![\s,，、"'“”‘’()（）.!?。！？])[\s,，、"'“”‘’()（）.!?。！？]+$/u;
const withoutEdgePunctuation = (text: string) => text.replace(LEADING_PUNCTUATION, '').replace(TRAILING_PUNCTUATION, '');
const REMEMBER = /^(?:你要|请你?)?(?:记住|记得|别忘了|不要忘了|不要忘记|别忘记)(?:一下)?[，,:：]?/u;
/**
 * Words before 我 that say nothing about the user: a lead-in closed by punctuation (对了，我…), or a short one whose
 * last character does not take 我 as its object (其实我… / 现在我…, but not 大家都叫我… or 他告诉我…).
 */
const LEAD_IN = /^(?:[^，,：:。]{1,12}[，,：:]\s*|\p{Script=Han}{1,4}?)(?=我)/u;
const TAKES_ME = /[是叫让给对把被和跟帮告诉说问称喊请教]$/u;

export function stripLead(clause: string): string {
  let rest = withoutEdgePunctuation(clause).replace(REMEMBER, '');
  const lead = LEAD_IN.exec(rest)?.[0];
  if (lead && !TAKES_ME.test(lead.trim()) && !saysWhen(lead, PRESENT_ZH)) rest = rest.slice(lead.length);
  return withoutEdgePunctuation(rest).trim();
}

const QUESTION =
  /[吗嘛么]$|什么|哪|谁|怎么|怎样|为什么|为何|多少|几[个岁点号月天年次位]|是不是|有没有|对不对|能不能|会不会|要不要|好不好|可不可以|记不记得|知不知道|还记得|如何|啥/u;
const REQUEST =
  /^(?:我(?:需要|要|想要)(?:一|个|点|些|几)|请|麻烦|帮我|帮忙|给我|告诉我|推荐|介绍|说说|讲讲|写|翻译|解释|总结|列出|计算|查|搜|找|你能|你可以|你会|你帮|你给|你把|你来|能不能|能否|可不可以|可以|让我们|我们来|把|别|不要|忘|删|清除|清空|提醒我|我想知道|我想问|我想请你|我需要你|我要你|我想让你|我希望你|我想了解|帮帮我)/u;

export const asks = (clause: string) => QUESTION.test(clause) || REQUEST.test(clause);

// 哪些 (which ones), 分别 (each), 所有/每 (all, every).
const ASKS_FOR_MANY = /哪些|分别|所有|每[个一样位]/u;
const ASKS_WHAT = /什么|哪|谁|几|多少/u;

/** Whether a question asks for several things: a list, 都 before its question word (都学过什么), or two questions joined by 和/还有. */
export function asksForMany(question: string): boolean {
  const asked = question.search(ASKS_WHAT);
  // 都 as a word of its own, not a character of another word (成都).
  const all = segmentWords(question).find((word) => word.text === '都')?.index ?? -1;
  return (
    ASKS_FOR_MANY.test(question) ||
    (all >= 0 && asked > all) ||
    question.split(/和|还有/u).filter((part) => ASKS_WHAT.test(part)).length >= 2
  );
}
export const normalise = (clause: string) => clause.replace(/\s+/g, '');
