/**
 * Language-neutral text features shared by the local embedder and the offline model:
 * lower-cased words for alphabetic scripts, single characters and bigrams for CJK runs.
 */
import { hasCjk, isCjk, stem, words } from '@/lib/text/search-terms';

// The tokenizer and stemmer are the lexical index's (lib/text/search-terms.ts), so features and index terms agree.
export { hasCjk, isCjk, words };

const STOPWORDS = new Set(
  'a an the and or but if of to in on at for with by from as is are was were be been am i me my you your we our it its this that these those he she they them his her their what who whom which when where why how do does did can could would should will shall may might have has had not no yes so than then there here about into over just also very really please tell say said talked earlier again'.split(
    ' ',
  ),
);
/** Whether a lower-cased word of an alphabetic script carries no content ("the", "my", "tell"). */
export function isStopWord(word: string): boolean {
  return STOPWORDS.has(word);
}

const CJK_STOP = new Set('的了是我你他她它们吗呢吧啊在和与就都也很这那什么怎么哪个'.split(''));

/** Content features for matching: words minus stop words, plus CJK bigrams (CJK has no spaces). */
export function contentFeatures(text: string): string[] {
  const tokens = words(text);
  const features: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (isCjk(token)) {
      if (!CJK_STOP.has(token)) features.push(token);
      const next = tokens[i + 1];
      if (next && isCjk(next)) features.push(token + next);
    } else if (!STOPWORDS.has(token) && token.length > 1) {
      features.push(stem(token));
    }
  }
  return features;
}

/**
 * The names a text says, lower-cased: its capitalised words past each sentence's first ("What does Obi do?" → obi;
 * Latin script only, as Chinese writes no capitals).
 */
export function properNames(text: string): string[] {
  return text
    .split(/[.!?;:]\s+/u)
    .flatMap((sentence) => sentence.split(/\s+/u).slice(1))
    .flatMap((word) => /^\p{Lu}\p{Ll}+(?!\p{L})/u.exec(word)?.[0].toLowerCase() ?? []);
}
