/**
 * Health: a condition the user has or a medicine they take ("I take warfarin every morning", "I've had asthma since
 * I was a kid", 我有高血压, 我确诊了糖尿病). The verb says having or taking; whether what follows is a condition or a
 * medicine is WordNet's and CC-CEDICT's to say (lib/text/rule-words.ts), not a list here: "I have a dog" is no health.
 */
import { ruleWordsHere } from '@/lib/text/rule-words';
import { cutEn } from './en/read';
import { type Found, one, type Reading } from './fact-types';

// The subject may be dropped at the start ("Got diagnosed with epilepsy at nineteen"), as in a diary.
const HAS_OR_TAKES_EN =
  /(?:^(?:i )?|\si )(?:(?:was|have been|got|am) diagnosed with|have been (?:taking|on)|have (?:had|got)|have|got|suffer from|live with|take|am taking|am on|am back on|rely on) (.+)$/i;
// Up to three words ending in the noun: "high blood pressure", "type 2 diabetes".
const PHRASE_WORDS = 3;

export function healthEn({ s }: Pick<Reading, 's'>): Found[] | null {
  const m = HAS_OR_TAKES_EN.exec(s);
  if (!m) return null;
  const said = cutEn(m[1]).toLowerCase().split(/\s+/u);
  const { english } = ruleWordsHere().health;
  const singular = (word: string) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  for (let end = 1; end <= said.length; end++)
    for (let start = Math.max(0, end - PHRASE_WORDS); start < end; start++) {
      const phrase = said.slice(start, end);
      if (english.has(phrase.join(' ')) || english.has([...phrase.slice(0, -1), singular(phrase.at(-1)!)].join(' ')))
        return one(
          'health',
          said
            .slice(0, end)
            .join(' ')
            .replace(/^(?:a|an|the|some|my)\s+/u, ''),
        );
    }
  return null;
}

const HAS_OR_TAKES_ZH = /^我.{0,6}?(?:有|患有|患了|得了|查出了?|确诊了?|吃|服用|用)(.+)$/u;

export function healthZh({ s }: Pick<Reading, 's'>): Found[] | null {
  const m = HAS_OR_TAKES_ZH.exec(s);
  if (!m) return null;
  const { chinese } = ruleWordsHere().health;
  // The longest word of the known ones that the rest opens with, after a few characters (点, 轻微的, 二型).
  for (let start = 0; start <= Math.min(4, m[1].length - 1); start++)
    for (let end = Math.min(m[1].length, start + 6); end > start + 1; end--)
      if (chinese.has(m[1].slice(start, end))) return one('health', m[1].slice(0, end));
  return null;
}
