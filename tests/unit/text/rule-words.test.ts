import { describe, expect, it } from 'vitest';
import { nounsOfKinds } from '@/lib/text/kinds';
import { namesHealthWord, ruleWords } from '@/lib/text/rule-words';

// Conditions and medicines by WordNet's hierarchy and CC-CEDICT's glosses: no list of them in the project.
describe('health words', () => {
  it('holds conditions and medicines, at any depth below their kind', () => {
    const english = new Set(ruleWords().health.english);
    for (const word of ['gout', 'eczema', 'epilepsy', 'statin', 'antihistamine', 'sertraline', 'high blood pressure'])
      expect(english, word).toContain(word);
  });

  it('holds none of the things people have or take every day', () => {
    const english = new Set(ruleWords().health.english);
    for (const word of ['bus', 'meeting', 'dog', 'wine', 'shift', 'break', 'nap']) expect(english, word).not.toContain(word);
  });

  it('leaves out acronyms and words used more as adjectives', () => {
    // ADD (attention deficit disorder) is not "add"; "cold" is used far more as an adjective.
    expect(nounsOfKinds(['disorder'])).not.toContain('add');
    expect(nounsOfKinds(['disease'])).not.toContain('cold');
  });

  it('reaches Chinese through the glosses', () => {
    const chinese = new Set(ruleWords().health.chinese);
    for (const word of ['哮喘', '糖尿病', '青霉素', '痛风']) expect(chinese, word).toContain(word);
    for (const word of ['工作', '咖啡', '狗']) expect(chinese, word).not.toContain(word);
  });

  it('tells a question that names a medicine or a condition', () => {
    expect(namesHealthWord('Is it fine to take aspirin before a long flight?')).toBe(true);
    expect(namesHealthWord('Does high blood pressure rule out a sauna?')).toBe(true);
    expect(namesHealthWord('痛风的人能喝啤酒吗？')).toBe(true);
    expect(namesHealthWord('Which bus goes to the harbour?')).toBe(false);
    expect(namesHealthWord('周末去哪里爬山好？')).toBe(false);
  });
});

// Jobs by WordNet's workers and professionals: the rules' list keeps only the jobs WordNet files elsewhere.
describe('occupation words', () => {
  it('holds jobs by their most used sense, and roles by any sense', () => {
    const { occupations, roles } = ruleWords();
    for (const word of ['farrier', 'glazier', 'hygienist', 'midwife', 'welder']) expect(occupations, word).toContain(word);
    // A conductor is first who leads an orchestra; collecting fares is one of its senses.
    expect(roles).toContain('conductor');
  });

  it('holds no word whose most used sense is not a job', () => {
    const { occupations } = ruleWords();
    for (const word of ['reader', 'friend', 'runner', 'fan', 'parent', 'smoker']) expect(occupations, word).not.toContain(word);
  });
});
