import { rulesMemoryModel } from '@/lib/memory/memory-model';
import { extractPrompt, reconcilePrompt, rewritePrompt, summarisePrompt } from '@/lib/memory/memory-prompts';
import type { ChatCompletionRequest, StubReply } from './openai-stub';

/**
 * An OpenAI-compatible model for the stub server that copies whatever it is given, the way a
 * careless model would: the chat repeats every memory line of its context word for word without
 * citing it, the summary repeats the new messages, and the rewritten query adds the last reply's
 * words. Facts are read by the offline rules (a model that extracts well); a fact already known
 * word for word is NONE, anything else ADD. Copies are what a correction must follow.
 */
export async function repeatingModel(request: ChatCompletionRequest): Promise<StubReply> {
  const system = textOf(request.messages.find((m) => m.role === 'system')?.content);
  const prompt = textOf(request.messages.findLast((m) => m.role === 'user')?.content);
  if (system === extractPrompt.instructions) {
    const [, date, text] = /^Message sent on (\d{4}-\d{2}-\d{2}):\n([\s\S]*)$/u.exec(prompt) ?? [];
    const candidates = text ? await rulesMemoryModel.extract(text, new Date(date)) : [];
    const facts = candidates.map((c) => ({
      slot: c.slot,
      text: c.text,
      value: c.value,
      negated: c.negated ?? false,
      validFrom: c.validFrom ?? null,
    }));
    return { text: JSON.stringify({ facts }) };
  }
  if (system === reconcilePrompt.instructions) {
    const { newFact, existingFacts } = JSON.parse(prompt) as {
      newFact: { text: string };
      existingFacts: Array<{ id: string; text: string }>;
    };
    const known = existingFacts.find((f) => f.text.toLowerCase() === newFact.text.toLowerCase());
    return { text: JSON.stringify({ decisions: [known ? { event: 'NONE', factId: known.id } : { event: 'ADD', factId: null }] }) };
  }
  if (system === summarisePrompt.instructions) {
    const [, previous = '(none)', messages = ''] = /^Previous summary:\n([\s\S]*?)\n\nNew messages:\n([\s\S]*)$/u.exec(prompt) ?? [];
    const lines = [...(previous === '(none)' ? [] : previous.split('\n')), ...messages.split('\n').map((line) => `- ${line}`)];
    return { text: lines.filter((line) => line.trim()).join('\n') };
  }
  if (system === rewritePrompt.instructions) {
    const question = /^Final question: (.*)$/mu.exec(prompt)?.[1] ?? prompt;
    const reply = /^Assistant: (.*)$/mu.exec(prompt)?.[1] ?? '';
    return { text: `${question} ${reply.slice(0, 80)}`.trim() };
  }
  // The chat: each memory line ([n] "text") repeated without its number.
  const lines = [...system.matchAll(/^\[\d+\] (".*")$/gmu)].map((m) => JSON.parse(m[1]) as string);
  return { text: lines.length > 0 ? `From what I have: ${lines.join(' ')}` : 'Noted.' };
}

function textOf(content: ChatCompletionRequest['messages'][number]['content'] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}
