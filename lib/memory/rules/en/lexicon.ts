import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * English words from the Hunspell dictionary of the `dictionary-en` package: its lower-case entries
 * are common words (hungry, busy, fine), its capitalised ones proper nouns (Henry, Grace). Read once,
 * on first use, from node_modules (the app, the tests and the scripts all run from the project root).
 */
type Lexicon = { common: Set<string>; proper: Set<string> };
let lexicon: Lexicon | undefined;

function load(): Lexicon {
  const common = new Set<string>();
  const proper = new Set<string>();
  const file = path.join(process.cwd(), 'node_modules', 'dictionary-en', 'index.dic');
  // The first line is the entry count; each other is `word` or `word/FLAGS`.
  for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
    const word = line.split('/')[0].trim();
    if (!word) continue;
    if (/^\p{Lu}/u.test(word)) proper.add(word);
    else common.add(word);
  }
  return { common, proper };
}

/** "Hungry", "Busy", "Fine": a common word written with a capital, and no one's name. "Grace" is both: a name. */
export function isCommonWordOnly(word: string): boolean {
  lexicon ??= load();
  const capitalised = word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  return lexicon.common.has(word.toLowerCase()) && !lexicon.proper.has(capitalised);
}
