import { LRUCache } from 'lru-cache';
import { words } from '@/lib/text/search-terms';
import type { MemoryItem, SummaryItem } from './context-item';

/** The share of an item's word pairs found in another item from which it says nothing more. */
const CONTAINED = 0.8;
/** A user message this long or longer, said again, is a repeat whatever the reply ("ok thanks" twice is not). */
const MESSAGE_PAIRS = 5;

/** 'whole': all of the item is said by the other; 'message': its user message is (the replies differ). */
export type Duplicate = { item: MemoryItem; of: MemoryItem; part: 'whole' | 'message' };

/**
 * The memory items that say what another of them already says: a fact stated in several
 * conversations, an exchange repeated word for word, a statement the summary quotes. An item is
 * contained in another when most of its word pairs (bigrams, so scattered common words never match)
 * occur in that other item listed before it, or in a larger one of its own block. An exchange whose
 * user message repeats the user message of one listed before it is a repeat too, whatever the reply
 * (the same thing told twice gets two acknowledgements); for a fact that says the message only when
 * the reply is less than half as long as the message (an acknowledgement), since a longer reply may
 * hold what the fact does not. A fact is never set
 * aside for an exchange that repeats it (the fact is what corrections act on); an exchange is, for a
 * fact or the summary that says it. Dates, speaker labels and a fact's notes are not words of what
 * was said.
 */
export function duplicatesAmong(items: MemoryItem[]): Duplicate[] {
  const pairs = items.map((item, index) => ({
    index,
    item,
    pairs: wordPairs(said(item)),
    message: wordPairs(exchangePart(item, 'message')),
    reply: wordPairs(exchangePart(item, 'reply')),
  }));
  // Which items hold a word pair: an item's shared pairs with every other are counted from its own
  // pairs' postings, not by comparing it with each of them (the candidates run to a hundred).
  const inWhole = postings(pairs.map((p) => p.pairs));
  const inMessage = postings(pairs.map((p) => p.message));
  const dropped = new Set<MemoryItem>();
  const found: Duplicate[] = [];
  for (const [i, a] of pairs.entries()) {
    if (a.pairs.size === 0) continue;
    const kept = pairs.filter((b, j) => j !== i && !dropped.has(b.item));
    const whole = containedIn(a.pairs, inWhole);
    const container = kept.find(
      (b) => (b.index < i || (b.item.block === a.item.block && b.pairs.size > a.pairs.size)) && whole.has(b.index),
    );
    const acknowledgement = a.reply.size * 2 < a.message.size;
    const message = container || a.message.size < MESSAGE_PAIRS ? undefined : containedIn(a.message, inMessage);
    const messageInWhole = message && acknowledgement ? containedIn(a.message, inWhole) : undefined;
    const repeated =
      message &&
      kept.find((b) => b.index < i && (message.has(b.index) || (b.item.block === 'facts' && messageInWhole?.has(b.index) === true)));
    const of = container ?? repeated;
    if (of) {
      dropped.add(a.item);
      found.push({ item: a.item, of: of.item, part: container ? 'whole' : 'message' });
    }
  }
  return found;
}

/** For each word pair, the places of the sets that hold it; `places`: how many sets there are. */
type Postings = { holders: Map<string, number[]>; places: number };

function postings(sets: Array<ReadonlySet<string>>): Postings {
  const holders = new Map<string, number[]>();
  for (const [place, set] of sets.entries()) {
    for (const pair of set) {
      const list = holders.get(pair);
      if (list) list.push(place);
      else holders.set(pair, [place]);
    }
  }
  return { holders, places: sets.length };
}

/** The places of the sets in `index` that hold most of `small` (contained: CONTAINED of its pairs). */
function containedIn(small: ReadonlySet<string>, index: Postings): Set<number> {
  // Counted in an array by place: every pair of every item passes here on every pass of the budget.
  const shared = new Uint32Array(index.places);
  for (const pair of small) for (const place of index.holders.get(pair) ?? []) shared[place]++;
  const holding = new Set<number>();
  for (const [place, count] of shared.entries()) if (count > 0 && count / small.size >= CONTAINED) holding.add(place);
  return holding;
}

/** A line of the summary that another item sent says, and that item. */
export type SaidElsewhere = { line: number; of: MemoryItem };

/**
 * The summary's lines that another item sent already says (a statement the summary quotes that a
 * fact or an exchange repeats): the summary as sent leaves them out, and the other item keeps the
 * words with what it adds (the reply, the date, the fact's notes). Never every line: a summary all
 * said elsewhere is sent whole.
 */
export function summaryLinesSaidElsewhere(summary: SummaryItem, sent: MemoryItem[]): SaidElsewhere[] {
  const others = sent.filter((item) => item.key !== summary.key);
  const index = postings(others.map((item) => wordPairs(said(item))));
  const lines = summaryLines(summary.text);
  const found = lines.flatMap((line, i) => {
    const pairs = wordPairs(withoutLabels(line));
    const holding = pairs.size === 0 ? undefined : containedIn(pairs, index);
    const of = others.find((_, place) => holding?.has(place));
    return of ? [{ line: i, of }] : [];
  });
  return found.length < lines.filter((line) => line.trim() !== '').length ? found : [];
}

/** The summary's lines, as `summaryLinesSaidElsewhere` numbers them. */
export const summaryLines = (text: string) => text.split('\n');

/** What an item says: without the date, the speaker labels or a fact's notes. */
export function said(item: MemoryItem): string {
  return withoutLabels(item.kind === 'fact' ? item.meta.content : item.text);
}

/** An item's text without the exchange labels and date it is listed with. */
export function withoutLabels(text: string): string {
  return text.replace(/^\(\d{4}-\d{2}-\d{2}\) /u, '').replace(/(^|\/ |- )(User|Assistant): /gu, '$1');
}

/** An exchange's user message or its reply; nothing for other items. */
function exchangePart(item: MemoryItem, part: 'message' | 'reply'): string {
  if (item.kind !== 'episode') return '';
  const match = /(?:^|\) )User: (.*?)(?: \/ Assistant: (.*))?$/su.exec(item.text);
  return (part === 'message' ? match?.[1] : match?.[2]) ?? '';
}

/**
 * The word pairs of the texts read lately: the budget asks for every sent item's again on each of
 * its passes, and the same facts and exchanges come back turn after turn. Bounded by the characters
 * of the texts (their pairs take a few times that).
 */
const pairsOfText = new LRUCache<string, ReadonlySet<string>>({
  maxSize: 1_000_000,
  sizeCalculation: (_, text) => Math.max(1, text.length),
});

function wordPairs(text: string): ReadonlySet<string> {
  const known = pairsOfText.get(text);
  if (known) return known;
  const all = words(text);
  const out = new Set<string>();
  for (let i = 0; i + 1 < all.length; i++) out.add(`${all[i]} ${all[i + 1]}`);
  pairsOfText.set(text, out);
  return out;
}
