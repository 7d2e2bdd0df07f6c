/** Deterministic synthetic memories for the latency benchmark: a seeded PRNG over a made-up vocabulary. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'su', 'vo', 'ne', 'dar', 'pi', 'qua', 'zel', 'bro', 'fin', 'gal', 'hu'];
const TEMPLATES_FACT = [
  'I like {a} and {b}.',
  'My friend {A} lives in {B}.',
  'I work on {a} at {B}.',
  'I am learning {a} every {b}.',
  'My favourite {a} is {B}.',
];
const TEMPLATES_USER = [
  'Can you tell me about {a} {b}?',
  'I went to {B} with {A} to see the {a}.',
  'How do I fix the {a} on my {b}?',
  'We talked about {a} and {b} with {A}.',
];
const TEMPLATES_REPLY = [
  'Sure: {a} works best with {b}.',
  'That sounds fun; {B} is lovely for {a}.',
  'Try checking the {a} first, then the {b}.',
];

export function vocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  // Two to four syllables: 16² + 16³ + 16⁴ possible words, plenty for any size asked.
  while (words.size < Math.min(size, 50_000)) {
    const n = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < n; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

export function filler(template: string, words: string[], random: () => number): string {
  const pick = () => words[Math.floor(random() * words.length)];
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return template.replace(/\{(a|b)\}/gu, () => pick()).replace(/\{(A|B)\}/gu, () => cap(pick()));
}

export const templates = { fact: TEMPLATES_FACT, user: TEMPLATES_USER, reply: TEMPLATES_REPLY };
