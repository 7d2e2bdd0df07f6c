import { describe, expect, it } from 'vitest';
import { kindsOfWord, kindWords, MAX_KIND_TERMS, namesMemberOf, nounsNamed } from '@/lib/text/kinds';

// What a noun is a kind of, from WordNet: the words a question names a list by, and a hint of meaning.
describe('kind words (WordNet)', () => {
  it.each([
    ['oboe', 'instrument'],
    ['trumpet', 'instrument'],
    ['kenya', 'country'],
    ['peru', 'country'],
    ['aspirin', 'medicine'],
    ['hamster', 'rodent'],
  ])('%s is a kind of %s', (word, kind) => {
    expect(kindsOfWord(word)).toContain(kind);
  });

  it('reads a time as the time it is part of too', () => {
    expect(kindsOfWord('sundays')).toContain('weekend');
    expect(kindsOfWord('noon')).toContain('day');
    expect(kindsOfWord('tuesday')).not.toContain('weekend');
    // Only times: a part of a thing is not what the thing is (a wheel is no car).
    expect(kindsOfWord('wheel')).not.toContain('car');
  });

  it('reads a plural by its singular', () => {
    expect(kindsOfWord('violas')).toEqual(kindsOfWord('viola'));
    expect(kindsOfWord('nieces')).toContain('relative');
  });

  it('leaves out the kinds near the root that any noun has', () => {
    for (const word of ['oboe', 'kenya', 'aspirin', 'niece']) {
      const kinds = kindsOfWord(word);
      for (const general of ['entity', 'object', 'abstraction', 'whole', 'thing']) expect(kinds).not.toContain(general);
    }
  });

  it('gives no kinds to a word used more as a verb or an adjective', () => {
    expect(kindsOfWord('run')).toEqual([]);
    expect(kindsOfWord('quiet')).toEqual([]);
  });

  it('takes a capitalised common noun in mid-sentence for a name, but keeps the kinds of a named place', () => {
    expect(kindWords('Our cat Pumpkin sleeps all day')).not.toContain('squash');
    expect(kindWords('Our autumn soup is pumpkin and ginger')).toContain('squash');
    expect(kindWords('Last year I flew to Kenya')).toContain('country');
  });

  it('reaches Chinese nouns through their English glosses', () => {
    expect(kindWords('我会拉小提琴')).toContain('instrument');
    expect(nounsNamed('你知道我养过哪些动物吗？')).toContain('animal');
  });

  it('tells a member of a kind a question asks for by a second sense and further up', () => {
    // "Japanese" is first a person; as a language it is four levels below "language".
    expect(namesMemberOf('My Japanese only gets me through a menu.', nounsNamed('Which languages can I speak?'))).toBe(true);
    expect(namesMemberOf('My Japanese colleague is in Osaka.', nounsNamed('Which instruments do I play?'))).toBe(false);
    expect(namesMemberOf('Anything at all', new Set())).toBe(false);
  });

  it('names the nouns of a question as WordNet lists them', () => {
    const named = nounsNamed('Which countries and which cities have I lived in?');
    expect(named).toContain('country');
    expect(named).toContain('city');
  });

  it('never adds a word the text says itself, and bounds a long text', () => {
    expect(kindWords('a trumpet and an instrument')).not.toContain('instrument');
    const long = 'oboe kenya aspirin hamster violin tulip salmon sparrow granite hammer sofa bicycle '.repeat(2000);
    const started = performance.now();
    expect(kindWords(long).length).toBeLessThanOrEqual(MAX_KIND_TERMS);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
