'use client';

import { memo, useState } from 'react';
import type { TurnRecord } from '../api-types';
import { type ChatMessage, textOf } from '../types';
import { Badge } from '../ui/badge';
import { formatTokens } from '../ui/format';
import { RedactedText } from '../ui/redacted-text';
import { Section } from '../ui/section';
import { sentTokens } from './sent-tokens';
import { SourceLinks } from './source-links';
import { useInspector } from './store';

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : JSON.stringify(part))).join('');
  }
  return JSON.stringify(content, null, 2);
}

const CITATION = /\[\d{1,3}\]/u;

/** Ids of the chat's finished replies whose text has `[n]`, space-separated. */
function repliesWithCitations(state: { messages: ChatMessage[] }): string {
  return state.messages
    .filter((m) => m.role === 'assistant' && m.metadata?.status !== 'streaming' && CITATION.test(textOf(m)))
    .map((m) => m.id)
    .join(' ');
}

const MESSAGES_HELP = (
  <>
    <p>
      Exactly what the model received, system prompt first, with the <b>tokens</b> of each message as the budget counted them: its content
      plus 4 tokens of chat framing. With the 3 tokens that prime the reply they add up to the budget&apos;s total.
    </p>
    <p>
      Earlier replies are sent without their <b>[n]</b> citations: those numbers pointed at the memory listed for <i>their</i> turn, and
      this turn numbers its memory afresh. The chat still shows them as written.
    </p>
  </>
);

/** The messages sent to the model, each with its tokens, and how they add up to the budget. */
export const MessagesSection = memo(function MessagesSection({ record }: { record: TurnRecord }) {
  const [copied, setCopied] = useState(false);
  // The chat's replies that show [n] (a string, so the section does not re-render with every streamed word).
  const citing = useInspector(repliesWithCitations);
  const tokens = sentTokens(record);
  const budgetTotal = record.budget?.total ?? null;
  const adds = tokens.total !== null && tokens.total === budgetTotal;
  return (
    <Section
      testId="messages"
      title="Messages sent"
      meta={`${record.messages.length} messages · ${tokens.total !== null ? `${formatTokens(tokens.total)} tokens` : 'tokens not recorded'}`}
      help={MESSAGES_HELP}
      defaultOpen={false}
    >
      <p className="mb-2 text-xs text-muted">Exactly what the model received, system prompt first, each with its tokens.</p>
      <ol className="space-y-2">
        {record.messages.map((message, index) => {
          const count = tokens.perMessage[index];
          const text = contentText(message.content);
          const stripped =
            message.role === 'assistant' && count?.messageId && citing.split(' ').includes(count.messageId) && !CITATION.test(text);
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the messages sent in a stored record, a fixed list that never reorders (the same text may be sent twice)
              key={index}
              data-testid="sent-message"
              data-role={message.role}
              data-tokens={count?.tokens ?? undefined}
              className="rounded-lg border border-line"
            >
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-line bg-subtle px-2 py-1 text-[11px]">
                <span className="font-mono font-semibold">{message.role}</span>
                <span className="text-faint">#{index}</span>
                {count?.messageId && index < record.messages.length - 1 ? <SourceLinks ids={[count.messageId]} /> : null}
                {index === record.messages.length - 1 && message.role === 'user' ? <span className="text-faint">this question</span> : null}
                {stripped ? (
                  <Badge title="Sent without the [n] citations the chat shows: they numbered the memory of that reply's own turn">
                    [n] removed
                  </Badge>
                ) : null}
                <span
                  className="ml-auto tabular-nums text-muted"
                  data-testid="sent-message-tokens"
                  title={
                    count && count.parts.length > 0
                      ? count.parts.map((p) => `${p.label} ${formatTokens(p.tokens)}`).join(' + ')
                      : 'Not recorded'
                  }
                >
                  {count?.tokens !== null && count?.tokens !== undefined ? `${formatTokens(count.tokens)} tokens` : '— tokens'}
                </span>
              </div>
              <pre
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a long message scrolls inside it, so the keyboard must reach it
                tabIndex={0}
                className="max-h-72 overflow-auto px-2 py-1.5 font-mono text-[12px] leading-5 break-words whitespace-pre-wrap"
              >
                <RedactedText text={text} />
              </pre>
            </li>
          );
        })}
      </ol>
      <p
        className="mt-2 text-xs text-muted tabular-nums"
        data-testid="messages-total"
        data-total={tokens.total ?? undefined}
        data-adds-up={adds}
      >
        {tokens.total !== null ? (
          <>
            {record.messages.length} messages + {tokens.priming} tokens priming the reply ={' '}
            <span className="font-medium text-fg">{formatTokens(tokens.total)} tokens</span>
            {adds ? ', the budget’s total.' : budgetTotal !== null ? ` (the budget recorded ${formatTokens(budgetTotal)}).` : '.'}
          </>
        ) : (
          'This record has no budget: the tokens of its messages were not recorded.'
        )}
      </p>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(JSON.stringify(record.messages, null, 2)).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          });
        }}
        className="mt-2 rounded-md border border-line px-2 py-1 text-xs text-muted hover:bg-subtle hover:text-fg"
      >
        {copied ? 'Copied' : 'Copy as JSON'}
      </button>
    </Section>
  );
});
