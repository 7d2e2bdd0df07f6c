'use client';

import type { ReactNode } from 'react';
import { saidElsewhere, sentInWindow } from '@/lib/shared/budget-reasons';
import type { RecalledItem, TurnRecord } from '../../api-types';
import { describeActor } from '../../describe-actor';
import { Badge } from '../../ui/badge';
import { formatDateTime, formatRelative, formatScore, formatTokens, ordinal } from '../../ui/format';
import { RedactedText } from '../../ui/redacted-text';
import { useViewer } from '../endpoints';
import { SourceLinks } from '../source-links';
import { revealCitation, useInspectorStore } from '../store';

/** Another reply of the conversation that cited an item, and the number it cited it as. */
export type CitingReply = { messageId: string; position: number; n: number | null };

/** What the list gives the card of each recalled item, whatever its kind. */
export type CardProps<Item extends RecalledItem = RecalledItem> = {
  item: Item;
  cited: boolean;
  focused: boolean;
  record: TurnRecord;
  onReveal: () => void;
  /** Other replies that cited this item, once looked up. */
  citedElsewhere: CitingReply[] | null;
  /** The fused score and the places in each search, instead of words. */
  showNumbers: boolean;
};

/** What a kind's card puts into the frame every recalled item shares. */
type KindParts = {
  /** The text as shown, when not simply the item's text. */
  text?: ReactNode;
  /** Badges after the budget's reason (a fact's kind, the summary's version). */
  badges?: ReactNode;
  /** How the item came, in words, shown unless the numbers are. */
  found: string;
  /** The conversation its sources are in, when that may be another one. */
  conversationHint: string | null;
};

/** How the searches found an item (`how`, by default read from its places in them) and its place among what they found, in words. */
export function foundWords(item: RecalledItem, how: string | null = searchedBy(item)): string {
  return [how, item.rank !== null ? `${ordinal(item.rank)} most relevant` : null].filter(Boolean).join(' · ');
}

function searchedBy(item: RecalledItem): string | null {
  if (item.vectorRank !== null && item.lexicalRank !== null) return 'found by meaning and by the words';
  if (item.vectorRank !== null) return 'found by meaning';
  if (item.lexicalRank !== null) return 'found by the words';
  return null;
}

/** One recalled item: its number, text and the budget's decision, how it was found, its sources and the replies that cited it. */
export function ItemCard({
  item,
  cited,
  focused,
  record,
  onReveal,
  citedElsewhere,
  showNumbers,
  text,
  badges,
  found,
  conversationHint,
}: CardProps & KindParts) {
  const store = useInspectorStore();
  const viewer = useViewer();
  const redacted = item.redacted;
  const inWindow = sentInWindow(item);
  const repeat = saidElsewhere(item);
  return (
    <li
      data-testid="recalled-item"
      data-key={item.key}
      data-kind={item.kind}
      data-kept={item.kept}
      data-cited={cited}
      data-n={item.n ?? undefined}
      data-focused={focused ? 'true' : undefined}
      data-redacted={redacted ? 'true' : undefined}
      className={`scroll-my-16 rounded-lg border p-2.5 text-sm transition-shadow ${
        cited
          ? 'border-accent/50 bg-accent-soft/50 shadow-[inset_3px_0_0_var(--color-accent)]'
          : item.kept
            ? 'border-line bg-surface'
            : 'border-dashed border-line bg-subtle/50 text-muted'
      } ${focused ? 'ring-2 ring-accent ring-offset-2 ring-offset-surface' : ''}`}
    >
      {redacted ? (
        <div data-testid="redacted-item" className="mb-2 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted">
          <Badge tone="danger" title="Deleted memory was removed from this item after the reply">
            Redacted
          </Badge>{' '}
          <span>
            by {describeActor(redacted.by, viewer)}{' '}
            <time dateTime={redacted.at} title={formatDateTime(redacted.at)}>
              {formatRelative(redacted.at)}
            </time>
            : {redacted.reason}
          </span>
        </div>
      ) : null}
      <div className="flex items-start gap-2">
        <span
          className={`mt-0.5 shrink-0 rounded px-1 font-mono text-[11px] leading-4 ${item.n !== null ? 'bg-fg text-surface' : 'bg-subtle text-faint'}`}
          title={
            item.n !== null
              ? `Listed as [${item.n}] in the system prompt: the reply cites it by this number`
              : 'Not listed in the system prompt'
          }
        >
          {item.n !== null ? `[${item.n}]` : '—'}
        </span>
        <p className="min-w-0 flex-1 leading-5 break-words whitespace-pre-wrap" data-testid="recalled-text">
          {text ?? <RedactedText text={item.text} />}
        </p>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        {cited ? (
          <Badge tone="accent" testId="cited-badge" title="The reply cited this item as [n]">
            Cited
          </Badge>
        ) : null}
        <Badge
          tone={item.kept ? 'good' : inWindow || repeat ? 'neutral' : 'warn'}
          testId="kept-badge"
          title={
            item.kept
              ? 'Given to memlens with the reply, listed as [n]'
              : inWindow
                ? 'Not sent as a memory: the recent messages already include all of it'
                : repeat
                  ? 'Not sent: another memory that is sent says the same (see the reason)'
                  : 'Found but not sent: there was no room left for it (see the reason)'
          }
        >
          {item.kept ? 'Sent' : inWindow ? 'In the chat' : repeat ? 'Said already' : 'No room'}
        </Badge>
        <span className="text-xs text-muted" data-testid="recalled-reason">
          {item.reason ?? 'no budget decision'} ·{' '}
          <span title="Tokens this item takes in the prompt, its [n] line included">{formatTokens(item.tokens)} tokens</span>
        </span>
        {badges}
      </div>
      <div className="mt-1.5 text-[11px] text-muted tabular-nums" data-testid="recalled-scores">
        {showNumbers ? (
          <>
            <span title="Reciprocal rank fusion of the two rankings: the sum of 1 / (60 + rank) over the rankings that found it. Higher is better.">
              score {formatScore(item.score)}
            </span>
            {item.rank !== null ? (
              <span title="Place after fusing both rankings, among what this search found"> · rank {item.rank}</span>
            ) : (
              ''
            )}
            <span title="Place by meaning (embedding cosine similarity); — when that ranking did not find it">
              {' '}
              · vector {item.vectorRank !== null ? `#${item.vectorRank}` : '—'}
            </span>
            <span title="Place by the query's words the text contains; — when that ranking did not find it">
              {' '}
              · lexical {item.lexicalRank !== null ? `#${item.lexicalRank}` : '—'}
            </span>
          </>
        ) : (
          found
        )}
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-[11px] text-muted">
        <span>from</span>
        <SourceLinks ids={item.sourceMessageIds} onReveal={onReveal} conversationHint={conversationHint} max={2} />
      </div>
      {cited || (citedElsewhere && citedElsewhere.length > 0) ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-[11px] text-muted" data-testid="cited-in">
          <span>cited in</span>
          {cited ? (
            <button
              type="button"
              data-testid="cited-by-reply"
              data-message-id={record.assistantMessageId}
              onClick={() => {
                if (revealCitation(record.assistantMessageId, item.n)) onReveal();
              }}
              className="rounded bg-accent-soft px-1 text-accent hover:underline"
              title={`Show where this reply cites it as [${item.n}]`}
            >
              this reply{item.n !== null ? ` [${item.n}]` : ''}
            </button>
          ) : null}
          {citedElsewhere?.map((reply) => (
            <button
              key={reply.messageId}
              type="button"
              data-testid="cited-by-reply"
              data-message-id={reply.messageId}
              onClick={() => {
                store?.focusItem(reply.messageId, { key: item.key });
                revealCitation(reply.messageId, reply.n);
              }}
              className="rounded bg-subtle px-1 text-accent hover:underline"
              title={`Open reply ${reply.position} in the inspector, at this item`}
            >
              reply {reply.position}
              {reply.n !== null ? ` [${reply.n}]` : ''}
            </button>
          ))}
        </div>
      ) : citedElsewhere ? (
        <p className="mt-1.5 text-[11px] text-faint" data-testid="cited-in-none">
          no other reply cited it
        </p>
      ) : null}
    </li>
  );
}
