import type { TurnRecord } from '../api-types';

// The tokens of each message sent, from the budget's recorded decisions (the browser does not count
// tokens itself). The chat framing mirrors lib/memory/context/tokens.ts, which the browser cannot import:
// every message costs its content plus 4 tokens, and the reply is primed with 3.
export const MESSAGE_FRAMING_TOKENS = 4;
export const REPLY_PRIMING_TOKENS = 3;

type SentPart = { label: string; tokens: number };

type SentMessageTokens = {
  /** Content plus framing; null when the record cannot tell (a record without a budget). */
  tokens: number | null;
  /** What the tokens are made of. */
  parts: SentPart[];
  /** The chat message it is, for the recent window and the question. */
  messageId: string | null;
};

export type SentTokens = {
  perMessage: SentMessageTokens[];
  priming: number;
  /** The sum of the messages and the priming: the budget's total when the record is whole. */
  total: number | null;
};

const MEMORY_BLOCKS = new Set(['facts', 'summary', 'episodes']);

/**
 * Splits the budget's kept decisions over the messages of `record.messages`: the system message
 * holds the prompt, the instructions and the numbered memory (with its section headers); then the
 * kept recent window, oldest first (the budget decides it newest first); then the question.
 */
export function sentTokens(record: Pick<TurnRecord, 'budget' | 'messages'>): SentTokens {
  const { messages, budget } = record;
  const unknown: SentTokens = {
    perMessage: messages.map(() => ({ tokens: null, parts: [], messageId: null })),
    priming: REPLY_PRIMING_TOKENS,
    total: null,
  };
  if (!budget || messages.length < 2) return unknown;
  const kept = budget.decisions.filter((d) => d.kept);
  const sum = (list: Array<{ tokens: number }>) => list.reduce((total, d) => total + d.tokens, 0);

  const prompt = kept.filter((d) => d.key === 'system:prompt');
  const instructions = kept.filter((d) => d.key.startsWith('system:') && d.key !== 'system:prompt');
  const memory = kept.filter((d) => MEMORY_BLOCKS.has(d.block));
  const question = kept.find((d) => d.key.startsWith('question:'));
  const history = kept.filter((d) => d.block === 'history').reverse();
  const framing = kept.find((d) => d.key === 'framing');

  const systemParts: SentPart[] = [
    { label: 'system prompt', tokens: sum(prompt) },
    { label: 'citation instructions', tokens: sum(instructions) },
    ...(memory.length > 0
      ? [{ label: `memory (${memory.filter((d) => !d.key.startsWith('header:')).length} items and headers)`, tokens: sum(memory) }]
      : []),
    { label: 'framing', tokens: MESSAGE_FRAMING_TOKENS },
  ];
  const perMessage: SentMessageTokens[] = [{ tokens: sum(systemParts), parts: systemParts, messageId: null }];

  const windowCount = messages.length - 2;
  const windowKnown = history.length === windowCount;
  for (let i = 0; i < windowCount; i += 1) {
    const decision = windowKnown ? history[i] : undefined;
    perMessage.push(
      decision
        ? {
            tokens: decision.tokens,
            parts: [
              { label: 'content', tokens: decision.tokens - MESSAGE_FRAMING_TOKENS },
              { label: 'framing', tokens: MESSAGE_FRAMING_TOKENS },
            ],
            messageId: decision.key.slice('message:'.length),
          }
        : { tokens: null, parts: [], messageId: null },
    );
  }
  perMessage.push(
    question
      ? {
          tokens: question.tokens + MESSAGE_FRAMING_TOKENS,
          parts: [
            { label: 'content', tokens: question.tokens },
            { label: 'framing', tokens: MESSAGE_FRAMING_TOKENS },
          ],
          messageId: question.key.slice('question:'.length),
        }
      : { tokens: null, parts: [], messageId: null },
  );

  // The budget's `framing` line holds the system message's and the question's framing and the priming.
  const priming = framing ? framing.tokens - 2 * MESSAGE_FRAMING_TOKENS : REPLY_PRIMING_TOKENS;
  const total = perMessage.every((m) => m.tokens !== null) ? perMessage.reduce((s, m) => s + (m.tokens ?? 0), 0) + priming : null;
  return { perMessage, priming, total };
}
