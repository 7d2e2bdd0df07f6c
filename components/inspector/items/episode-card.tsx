'use client';

import type { RecalledItem } from '../../api-types';
import { type CardProps, foundWords, ItemCard } from './item-card';

/** An earlier exchange: found by a search, or brought because it was said right next to one found. */
export function EpisodeCard(props: CardProps<Extract<RecalledItem, { kind: 'episode' }>>) {
  const { item } = props;
  const found =
    item.meta.neighbourOf === undefined
      ? foundWords(item)
      : foundWords(item, item.meta.side === -1 ? 'said just before an exchange found' : 'said just after an exchange found');
  return <ItemCard {...props} found={found} conversationHint={item.meta.conversationId} />;
}
