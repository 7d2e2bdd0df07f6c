import { words } from '@/lib/text/search-terms';
import type { ContextItem } from './state';

/** The share of an item's word pairs found in another item from which it says nothing more. */
const CONTAINED = 0.8;

/**
 * The memory items that say what another of them already says: a fact stated in several
 * conversations, an exchange repeated word for word, a statement the summary quotes. An item is
 * contained in another when most of its word pairs (bigrams, so scattered common words never match)
 * occur in that other item listed before it, or in a larger one of its own block. A fact is never set
 * aside for an exchange that repeats it (the fact is what corrections act on); an exchange is, for a
 * fact or the summary that says it. Dates, speaker labels and a fact's notes are not words of what
 * was said.
 */
export function duplicatesAmong(items: ContextItem[]): Array<{ item: ContextItem; of: ContextItem }> {
  const pairs = items.map((item) => ({ item, pairs: wordPairs(item) }));
  const dropped = new Set<ContextItem>();
  const found: Array<{ item: ContextItem; of: ContextItem }> = [];
  for (const [i, a] of pairs.entries()) {
    if (a.pairs.size === 0) continue;
    const container = pairs.find(
      (b, j) =>
        j !== i &&
        !dropped.has(b.item) &&
        (j < i || (b.item.block === a.item.block && b.pairs.size > a.pairs.size)) &&
        contained(a.pairs, b.pairs),
    );
    if (container) {
      dropped.add(a.item);
      found.push({ item: a.item, of: container.item });
    }
  }
  return found;
}

function wordPairs(item: ContextItem): Set<string> {
  const text = typeof item.meta?.content === 'string' ? item.meta.content : item.text;
  const said = words(text.replace(/^\(\d{4}-\d{2}-\d{2}\) /u, '').replace(/(^|\/ |- )(User|Assistant): /gu, '$1'));
  const out = new Set<string>();
  for (let i = 0; i + 1 < said.length; i++) out.add(`${said[i]} ${said[i + 1]}`);
  return out;
}

function contained(small: Set<string>, large: Set<string>): boolean {
  let shared = 0;
  for (const pair of small) if (large.has(pair)) shared++;
  return shared / small.size >= CONTAINED;
}
