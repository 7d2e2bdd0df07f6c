/**
 * Characters a reader cannot see but a model reads: Unicode tag characters (U+E0000–U+E007F, which
 * can spell out a whole hidden instruction in ASCII), bidirectional controls (which reorder what is
 * displayed, so the text on screen is not the text sent) and zero-width and other invisible format
 * characters. The inspector and the staff console show each as a visible token (components/
 * visible-text.tsx); what is stored and sent is never changed. A pure module, for the browser too.
 */

export type TextPiece =
  | { kind: 'text'; text: string }
  /** One invisible character, or a run of tag characters; `label` is what is shown, `title` says what it is. */
  | { kind: 'invisible'; chars: string; label: string; title: string };

const NAMES: Record<number, [short: string, name: string]> = {
  173: ['SHY', 'SOFT HYPHEN'],
  1564: ['ALM', 'ARABIC LETTER MARK'],
  6158: ['MVS', 'MONGOLIAN VOWEL SEPARATOR'],
  8203: ['ZWSP', 'ZERO WIDTH SPACE'],
  8204: ['ZWNJ', 'ZERO WIDTH NON-JOINER'],
  8205: ['ZWJ', 'ZERO WIDTH JOINER'],
  8206: ['LRM', 'LEFT-TO-RIGHT MARK'],
  8207: ['RLM', 'RIGHT-TO-LEFT MARK'],
  8234: ['LRE', 'LEFT-TO-RIGHT EMBEDDING'],
  8235: ['RLE', 'RIGHT-TO-LEFT EMBEDDING'],
  8236: ['PDF', 'POP DIRECTIONAL FORMATTING'],
  8237: ['LRO', 'LEFT-TO-RIGHT OVERRIDE'],
  8238: ['RLO', 'RIGHT-TO-LEFT OVERRIDE'],
  8288: ['WJ', 'WORD JOINER'],
  8289: ['FA', 'FUNCTION APPLICATION'],
  8290: ['IT', 'INVISIBLE TIMES'],
  8291: ['IS', 'INVISIBLE SEPARATOR'],
  8292: ['IP', 'INVISIBLE PLUS'],
  8294: ['LRI', 'LEFT-TO-RIGHT ISOLATE'],
  8295: ['RLI', 'RIGHT-TO-LEFT ISOLATE'],
  8296: ['FSI', 'FIRST STRONG ISOLATE'],
  8297: ['PDI', 'POP DIRECTIONAL ISOLATE'],
  65279: ['ZWNBSP', 'ZERO WIDTH NO-BREAK SPACE (BOM)'],
};

// Every character this module names, and the whole tag block: one pass finds them all.
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]+/gu;

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The ASCII a tag character stands for (U+E0020–U+E007E mirror U+0020–U+007E); others by code point. */
function tagText(run: string): string {
  return Array.from(run, (char) => {
    const code = char.codePointAt(0)! - 0xe0000;
    return code >= 0x20 && code <= 0x7e ? String.fromCharCode(code) : `{${codePoint(char)}}`;
  }).join('');
}

function describeInvisible(chars: string): { label: string; title: string } {
  const first = chars.codePointAt(0)!;
  if (first >= 0xe0000) {
    const points = Array.from(chars, codePoint);
    const shown = points.length > 8 ? `${points.slice(0, 8).join(' ')} … (${points.length})` : points.join(' ');
    return {
      label: `⟨TAG ${JSON.stringify(tagText(chars))}⟩`,
      title: `Invisible Unicode tag characters ${shown}: hidden text a model can read. Shown here decoded; stored and sent as is.`,
    };
  }
  const [short, name] = NAMES[first];
  return {
    label: `⟨${short}⟩`,
    title: `${codePoint(chars)} ${name}: an invisible character, shown here as a mark; stored and sent as is.`,
  };
}

/** The text cut into visible text and invisible characters (tag characters grouped in runs). */
export function splitInvisible(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    if (match.index > at) pieces.push({ kind: 'text', text: text.slice(at, match.index) });
    pieces.push({ kind: 'invisible', chars: match[0], ...describeInvisible(match[0]) });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ kind: 'text', text: text.slice(at) });
  return pieces;
}
