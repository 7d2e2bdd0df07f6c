'use client';

import type { RecalledItem } from '../../api-types';
import { Badge } from '../../ui/badge';
import { type CardProps, foundWords, ItemCard } from './item-card';

/** A fact: its kind (slot), and the conversation it was learned in. */
export function FactCard(props: CardProps<Extract<RecalledItem, { kind: 'fact' }>>) {
  const { item } = props;
  return (
    <ItemCard
      {...props}
      badges={<Badge title="The kind of fact: a new fact of the same kind replaces the old one">{item.meta.slot}</Badge>}
      found={foundWords(item)}
      conversationHint={item.meta.conversationId}
    />
  );
}
