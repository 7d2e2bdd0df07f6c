import { words } from '@/lib/text/search-terms';
import type { ContextItem } from './state';

/** The share of an item's word pairs found in another item from which it says nothing more. */
const CONTAINED = 0.8;
/** A user message this long or longer, said again, is a repeat whatever the reply ("ok thanks" twice is not). */
const MESSAGE_PAIRS = 5;

/** 'whole': all of the item is said by the other; 'message': its user message is (the replies differ). */
export type Duplicate = { item: ContextItem; of: ContextItem; part: 'whole' | 'message' };

/**
 * The memory items that say what another of them already says: a fact stated in several
 * conversations, an exchange repeated word for word, a statement the summary quotes. An item is
 * contained in another when most of its word pairs (bigrams, so scattered common words never match)
 * occur in that other item listed before it, or in a larger one of its own block. An exchange whose
 * user message repeats the user message of one listed before it is a repeat too, whatever the reply
 * (the same thing told twice gets two acknowledgements); not for a fact that says the message, since
 * the reply may hold what the fact does not. A fact is never set
 * aside for an exchange that repeats it (the fact is what corrections act on); an exchange is, for a
 * fact or the summary that says it. Dates, speaker labels and a fact's notes are not words of what
 * was said.
 */
export function duplicatesAmong(items: ContextItem[]): Duplicate[] {
  const pairs = items.map((item) => ({ item, pairs: wordPairs(said(item)), message: wordPairs(userMessage(item)) }));
  const dropped = new Set<ContextItem>();
  const found: Duplicate[] = [];
  for (const [i, a] of pairs.entries()) {
    if (a.pairs.size === 0) continue;
    const kept = pairs.filter((b, j) => j !== i && !dropped.has(b.item));
    const container = kept.find(
      (b) => (pairs.indexOf(b) < i || (b.item.block === a.item.block && b.pairs.size > a.pairs.size)) && contained(a.pairs, b.pairs),
    );
    const repeated =
      container || a.message.size < MESSAGE_PAIRS ? undefined : kept.find((b) => pairs.indexOf(b) < i && contained(a.message, b.message));
    const of = container ?? repeated;
    if (of) {
      dropped.add(a.item);
      found.push({ item: a.item, of: of.item, part: container ? 'whole' : 'message' });
    }
  }
  return found;
}

/** What an item says: without the date, the speaker labels or a fact's notes. */
function said(item: ContextItem): string {
  const text = typeof item.meta?.content === 'string' ? item.meta.content : item.text;
  return text.replace(/^\(\d{4}-\d{2}-\d{2}\) /u, '').replace(/(^|\/ |- )(User|Assistant): /gu, '$1');
}

/** An exchange's user message; nothing for other items. */
function userMessage(item: ContextItem): string {
  if (item.block !== 'episodes') return '';
  return /(?:^|\) )User: (.*?)(?: \/ Assistant: |$)/su.exec(item.text)?.[1] ?? '';
}

function wordPairs(text: string): Set<string> {
  const all = words(text);
  const out = new Set<string>();
  for (let i = 0; i + 1 < all.length; i++) out.add(`${all[i]} ${all[i + 1]}`);
  return out;
}

function contained(small: Set<string>, large: Set<string>): boolean {
  let shared = 0;
  for (const pair of small) if (large.has(pair)) shared++;
  return shared / small.size >= CONTAINED;
}
