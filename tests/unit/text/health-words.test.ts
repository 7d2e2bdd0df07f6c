import { describe, expect, it } from 'vitest';
import { healthWords, namesHealthWord } from '@/lib/text/health-words';
import { nounsOfKinds } from '@/lib/text/kinds';

// Conditions and medicines by WordNet's hierarchy and CC-CEDICT's glosses: no list of them in the project.
describe('health words', () => {
  it('holds conditions and medicines, at any depth below their kind', () => {
    const english = new Set(healthWords().english);
    for (const word of ['gout', 'eczema', 'epilepsy', 'statin', 'antihistamine', 'sertraline', 'high blood pressure'])
      expect(english, word).toContain(word);
  });

  it('holds none of the things people have or take every day', () => {
    const english = new Set(healthWords().english);
    for (const word of ['bus', 'meeting', 'dog', 'wine', 'shift', 'break', 'nap']) expect(english, word).not.toContain(word);
  });

  it('leaves out acronyms and words used more as adjectives', () => {
    // ADD (attention deficit disorder) is not "add"; "cold" is used far more as an adjective.
    expect(nounsOfKinds(['disorder'])).not.toContain('add');
    expect(nounsOfKinds(['disease'])).not.toContain('cold');
  });

  it('reaches Chinese through the glosses', () => {
    const chinese = new Set(healthWords().chinese);
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
