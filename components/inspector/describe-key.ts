'use client';

import type { TurnRecord } from '../api-types';
import { type ChatMessage, textOf } from '../types';
import { shortId } from '../ui/format';
import { useInspector } from './store';

/** A readable name for a budget decision's key, from the record and the chat. */
export function useDescribeKey(record: TurnRecord): (key: string) => string {
  const messages = useInspector((state) => state.messages);
  return (key: string) => describeKey(key, record, messages);
}

function describeKey(key: string, record: TurnRecord, messages: ChatMessage[]): string {
  const recalled = record.recalled.find((item) => item.key === key);
  // An exchange by what the user said: its date and the speaker label take the little room there is.
  if (recalled) return recalled.kind === 'episode' ? recalled.text.replace(/^(?:\(\d{4}-\d{2}-\d{2}\) )?User: /u, 'You: ') : recalled.text;
  const [kind, rest = ''] = splitKey(key);
  switch (kind) {
    case 'message': {
      const message = messages.find((m) => m.id === rest);
      if (!message) return `message ${shortId(rest)}`;
      const text = textOf(message).replace(/\s+/gu, ' ').trim();
      return `${message.role === 'user' ? 'You' : 'Reply'}: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`;
    }
    case 'question':
      return `This question: ${record.question.text}`;
    case 'system':
      return rest === 'prompt' ? 'System prompt' : rest === 'instructions' ? 'Citation instructions' : `System ${rest}`;
    case 'header':
      return `${rest} section header`;
    case 'framing':
      return 'Chat framing';
    default:
      return key;
  }
}

function splitKey(key: string): [string, string] {
  const colon = key.indexOf(':');
  return colon === -1 ? [key, ''] : [key.slice(0, colon), key.slice(colon + 1)];
}
