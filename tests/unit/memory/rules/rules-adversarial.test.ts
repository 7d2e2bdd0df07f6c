import { describe, expect, it } from 'vitest';
import { decomposeQuery } from '@/lib/memory/context/decompose-query';
import {
  asksSomething,
  decideFactUpdate,
  detectForgetRequest,
  extractFactCandidates,
  factsToForget,
  slotsNamed,
} from '@/lib/memory/rules/facts';
import { forgetRequestObject } from '@/lib/memory/rules/forget';
import { absolutizeRelativeDates } from '@/lib/memory/rules/relative-dates';
import { detectRewriteTrigger, rewriteOffline } from '@/lib/memory/rules/rewrite';
import { sentenceSalience, summariseExtractive } from '@/lib/memory/rules/summarise';

/**
 * Texts made to make a pattern backtrack (issue 31): each rule must come back from them, here on the
 * test's own thread, with a sane answer. Sized at the rules' input bound (RULE_INPUT_MAX_CHARS), and
 * not collapsed the way forRules would, so runs of blanks stay long. No time is asserted: a rule that
 * went super-linear again would run past the test's timeout instead.
 */
const BOUND = 8000;
const NOW = new Date('2024-05-15T12:00:00Z');

/** `head`, then `unit` repeated up to the bound, then `tail`. */
const run = (unit: string, head = '', tail = 'x') =>
  head + unit.repeat(Math.floor((BOUND - head.length - tail.length) / unit.length)) + tail;

const ADVERSARIAL: Record<string, string> = {
  // The two texts of the issue: the summary's filler pattern and the English clause splitter.
  'hope, then help and hope again': `希望${'有帮助希望x'.repeat(27)}`,
  'hope, then help and hope again, to the bound': run('有帮助希望x', '希望'),
  'a home after thousands of spaces': `I live in${' '.repeat(5000)}x`,
  // Runs of blanks of every kind.
  spaces: run(' ', 'I like tea'),
  tabs: run('\t', 'I am'),
  'line breaks': run('\n', 'my dog'),
  'blank lines': run(' \n', 'I live in'),
  'line separators': run('\u2028', '[1]'),
  // Runs of punctuation, Latin and Chinese.
  'exclamation marks': run('!', 'I moved to Porto'),
  'full stops': run('.', 'Thanks'),
  commas: run(',', 'I like'),
  'Chinese full stops': run('。', '我住在上海'),
  tildes: run('～', '好的'),
  'a list of letters': run('a, ', "I'm Anna, "),
  // Words a pattern takes again and again.
  'trailing nows': run(' now', 'I live in Oslo'),
  ands: run(' and', 'I like tea'),
  froms: run(' from', 'i am Anna,'),
  'polite words before remember': run('please ', '', 'remember'),
  'polite words before forget': run('please ', '', 'forget x'),
  'dogs of mine': run('my dog ', '', ''),
  'small talk, then a question': run('hi thanks ok ', '', '?'),
  'about me after blanks': run(' ', 'forget everything', 'about me!'),
  'a name after blanks': run(' ', 'my name is', '\n'),
  'an introduction after blanks': run(' ', 'I am Anna,', '\u2028x'),
  'forget after blanks': run(' ', 'forget', '\n'),
  'capitalised names': run('Anna ', '', '1-'),
  'a product number': run('1.', 'Pixel ', '!'),
  // Chinese characters a pattern takes again and again.
  嗯: run('嗯'),
  哈: run('哈'),
  好的: run('好的'),
  希望有帮助: run('希望有帮助'),
  '是 after 我最喜欢的': run('是', '我最喜欢的', '\n'),
  '很 before 过敏': run('很', '我对'),
  '当 after 我在': run('当', '我在', '\n'),
  吃: run('吃', '', ''),
  '叫 in a pet name': run('叫', '我养了一只', '的猫\n'),
  了: run('了'),
  的: run('的'),
  'Han without 的': run('汉'),
  // Opening marks never closed, and markers.
  '《': run('《', '', ''),
  '「': run('「', '', ''),
  '“': run('“', '', ''),
  'straight quotes': run('"'),
  'opening brackets': run('('),
  'citation markers before a link': run('[1]', '', '('),
  // Long runs of digits. Chinese numerals stay shorter: chrono-node's Chinese parser (a dependency, not
  // these patterns) is itself quadratic on them, which the rules' time budget in bounded.ts covers.
  digits: run('1'),
  'Chinese numerals': '一'.repeat(1000),
  'a clock time in Chinese numerals': `${'十二'.repeat(500)}点x`,
};

describe('the rules on adversarial texts', () => {
  for (const [name, text] of Object.entries(ADVERSARIAL)) {
    it(`come back from ${name}`, () => {
      const candidates = extractFactCandidates(text, NOW);
      expect(candidates.every((c) => typeof c.slot === 'string' && typeof c.value === 'string')).toBe(true);
      expect(typeof asksSomething(text)).toBe('boolean');

      const request = detectForgetRequest(text);
      const facts = candidates.map((c, i) => ({ id: String(i), slot: c.slot, text: c.text, value: c.value }));
      expect(factsToForget(request ?? { all: false, slots: slotsNamed(text), terms: [text.slice(0, 40)] }, facts)).toBeInstanceOf(Array);
      const object = forgetRequestObject(text);
      if (object) expect(0 <= object.start && object.start < object.end && object.end <= text.length).toBe(true);
      for (const candidate of candidates) expect(decideFactUpdate(candidate, facts).length).toBeGreaterThan(0);

      expect(absolutizeRelativeDates(text, NOW).text.length).toBeGreaterThan(0);
      expect(typeof detectRewriteTrigger(text, 2).needed).toBe('boolean');
      const recent = [
        { role: 'user' as const, content: text },
        { role: 'assistant' as const, content: text },
      ];
      expect(typeof rewriteOffline(text, recent, NOW).query).toBe('string');
      for (const line of summariseExtractive(null, recent).split('\n')) expect(line.length).toBeLessThanOrEqual(300);
      expect(decomposeQuery(text).clauses).toBeInstanceOf(Array);
    });
  }

  it('read the issue’s texts as before', () => {
    // A run of blanks is only a space to the clause reader: the same fact, said in the user's words.
    const valuesOf = (text: string) => extractFactCandidates(text, NOW).map(({ slot, value }) => ({ slot, value }));
    expect(valuesOf(`I live in${' '.repeat(5000)}Oslo`)).toEqual([{ slot: 'location', value: 'oslo' }]);
    // Thanks on and on is small talk; a text that ends in something else is not.
    expect(sentenceSalience(run('谢谢！', '', ''), 'user')).toBe(0);
    expect(sentenceSalience(run('希望这对你有帮助。', '', ''), 'user')).toBe(0);
    expect(sentenceSalience(`希望${'有帮助希望x'.repeat(27)}`, 'user')).toBeGreaterThan(0);
  });
});
