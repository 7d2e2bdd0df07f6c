/**
 * English text as compromise tags it, for every reading that needs its words (the clause split, the lead-in, the
 * subject, the names, the tense). Tagging costs milliseconds, and one message asks for the same text several times
 * over (a clause by the split, the subject and the tense readings, a sentence once for each of its clauses), so each
 * text is tagged once and kept for the next reading. Kept by the exact text, a reading is the same as a fresh one.
 */
import nlp from 'compromise';

/** A word as compromise read it in its text: where it starts there, its tags, and its base form ("moved" → "move"). */
export type Term = {
  readonly text: string;
  readonly normal: string;
  readonly tags: readonly string[];
  readonly lemma: string;
  readonly start: number;
};

type Document = ReturnType<typeof nlp>;
type Tagged = { doc: Document; terms: readonly Term[] };
type TermJson = { offset: { start: number }; terms: [{ text: string; normal: string; tags: string[]; root?: string }] };

/** Many messages' worth of sentences and clauses. */
const KEPT = 256;
const kept = new Map<string, Tagged>();

function tag(text: string): Tagged {
  const tagged = kept.get(text) ?? read(text);
  // Set again, the text is the most recently read (a Map keeps insertion order); when full, the least recent goes.
  kept.delete(text);
  kept.set(text, tagged);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return tagged;
}

function read(text: string): Tagged {
  const doc = nlp(text);
  // The base forms on a copy: computed on the document, they turn the verb grammar's "was connecting" into the present.
  const rooted = doc.clone();
  rooted.compute('root');
  const terms = (rooted.terms().json({ offset: true }) as TermJson[]).map(({ offset, terms: [t] }) => ({
    text: t.text,
    normal: t.normal,
    tags: t.tags,
    lemma: t.root || t.normal,
    start: offset.start,
  }));
  return { doc, terms };
}

export const termsOf = (text: string): readonly Term[] => tag(text).terms;

/** The tagged document, a copy of its own: the verb grammar rewrites it in place, and the kept one serves the next reading. */
export const documentOf = (text: string) => tag(text).doc.clone() as Document;
