'use client';

import { EpisodeCard } from './episode-card';
import { FactCard } from './fact-card';
import type { CardProps } from './item-card';
import { SummaryCard } from './summary-card';

/** The card of a recalled item's kind. */
export function RecalledCard(props: CardProps) {
  const { item } = props;
  switch (item.kind) {
    case 'fact':
      return <FactCard {...props} item={item} />;
    case 'summary':
      return <SummaryCard {...props} item={item} />;
    case 'episode':
      return <EpisodeCard {...props} item={item} />;
  }
}
