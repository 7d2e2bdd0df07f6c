/**
 * When a Chinese clause places what it says, read by its own time and aspect markers: a past time word (以前, 小时候,
 * 曾经, 当年) or the experiential 过 (住过, 当过) makes a past state; an origin word (老家, 出生, 长大) where the user comes
 * from; a present marker (现在, 已经, 开始, 正在) keeps it current. The present restatement drops the past markers.
 */
import type { Reading } from '../fact-types';

const PAST_ZH = /以前|之前|从前|过去|曾经|小时候|当年|那时候?|原来|早年|年轻时|上学时/gu;
/** 过 after a verb (住过, 当过, 去过), not in words of its own (不过, 难过, 经过, 过敏, 过来, 过年). */
const EXPERIENTIAL_ZH = /(?<=\p{Script=Han})(?<![不难经通超路度越])过(?![敏来去年节日程期度])/gu;
// Their non-global twins, for a test that keeps no lastIndex between texts.
const HAS_PAST_ZH = new RegExp(PAST_ZH.source, 'u');
const HAS_EXPERIENTIAL_ZH = new RegExp(EXPERIENTIAL_ZH.source, 'u');
const ORIGIN_ZH = /老家|家乡|故乡|出生|出身|长大/u;
const CURRENT_ZH = /现在|目前|如今|已经|开始|正在/u;

export const originZh = ({ raw }: Reading) => ORIGIN_ZH.test(raw);

export function pastAsPresentZh({ s, raw }: Reading): string | null {
  const marked = HAS_PAST_ZH.test(raw) || HAS_EXPERIENTIAL_ZH.test(raw);
  return marked && !CURRENT_ZH.test(raw) ? s.replace(PAST_ZH, '').replace(EXPERIENTIAL_ZH, '') : null;
}

/** Whether a question asks what happened: the experiential 过 (去过哪些, 学过什么), with nothing wished or planned (想, 打算). */
export function asksWhatHappenedZh(question: string): boolean {
  return HAS_EXPERIENTIAL_ZH.test(question) && !/想|打算|计划|准备|要/u.test(question);
}
