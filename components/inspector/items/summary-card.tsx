'use client';

import type { RecalledItem } from '../../api-types';
import { Badge } from '../../ui/badge';
import { RedactedText } from '../../ui/redacted-text';
import { type CardProps, ItemCard } from './item-card';

/** The conversation's summary: its version, and the lines it was sent without. */
export function SummaryCard(props: CardProps<Extract<RecalledItem, { kind: 'summary' }>>) {
  const { item, record } = props;
  // The summary as sent may leave out lines another memory sent says: those are the ones it lacks.
  const sent = item.kept && record.summary?.text !== item.text ? record.summary?.text : undefined;
  return (
    <ItemCard
      {...props}
      text={sent === undefined ? undefined : <SummaryLines text={item.text} sent={sent} />}
      badges={<Badge title="The summary version that was sent">v{item.meta.version}</Badge>}
      found="comes with the conversation"
      conversationHint={null}
    />
  );
}

/** The summary line by line, the lines it was sent without set off as not sent. */
function SummaryLines({ text, sent }: { text: string; sent: string }) {
  const kept = new Set(sent.split('\n'));
  return text.split('\n').map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text in reading order, recomputed whole from it
    <span key={index} className="block">
      {kept.has(line) ? (
        <RedactedText text={line} />
      ) : (
        <span
          className="text-faint"
          data-testid="summary-line-not-sent"
          title="Not sent with this reply: another memory that is sent says it"
        >
          <RedactedText text={line} /> <span className="text-[11px] italic">(not sent: said in another memory)</span>
        </span>
      )}
    </span>
  ));
}
