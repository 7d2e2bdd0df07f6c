import { generateText } from 'ai';
import { countMessagesUpTo, getMessages, messagesAfter } from '@/db/history';
import type { Message } from '@/db/schema';
import { getSummary, writeSummary } from '@/db/summaries';
import type { Models } from '@/lib/llm';
import type { PostTurnWork } from '../post-turn';
import { summariseExtractive } from '../rules/summarise';

/**
 * The rolling summary: starts when the conversation reaches SUMMARY_START_MESSAGES, refreshes when
 * SUMMARY_REFRESH_MESSAGES or more messages lie beyond what it covers, and always leaves the last
 * SUMMARY_KEEP_RAW messages raw. Incremental: previous summary (as edited, if a person edited it)
 * plus the newly covered messages.
 */
export const refreshSummary: PostTurnWork = {
  kind: 'refresh_summary',
  async run({ job, config, models }) {
    const scope = { userId: job.userId, conversationId: job.conversationId };
    // Counted up to this reply, so late or imported jobs summarise what existed at that turn.
    const total = await countMessagesUpTo(scope, job.messageId);
    const current = await getSummary(scope);
    const covered = current?.coveredMessageCount ?? 0;
    const coverable = total - config.SUMMARY_KEEP_RAW;
    if (!current && total < config.SUMMARY_START_MESSAGES) return;
    if (coverable - covered < (current ? config.SUMMARY_REFRESH_MESSAGES : 1)) return;

    const fresh = await messagesAfter(scope, current?.lastCoveredMessageId ?? null, coverable - covered);
    if (fresh.length === 0) return;
    const previous = current?.content ?? null;
    const content = models.memory ? await summariseWithModel(models, previous, fresh) : summariseExtractive(previous, fresh.map(asInput));
    const written = await writeSummary(
      scope,
      {
        content,
        coveredMessageCount: covered + fresh.length,
        lastCoveredMessageId: fresh.at(-1)!.id,
        sourceMessageIds: models.memory
          ? [...new Set([...(current?.sourceMessageIds ?? []), ...fresh.map((m) => m.id)])]
          : sourcesOf(content, [...(await getMessages(job.userId, current?.sourceMessageIds ?? [])), ...fresh]),
        actor: models.memory ? `model:${models.memory.modelId}` : 'offline-summariser',
        action: 'refresh',
      },
      current?.version ?? null,
    );
    // Someone edited or cleared it meanwhile: fail, so the retry builds on their version.
    if (!written) throw new Error('the summary changed while it was being refreshed');
  },
};

function asInput(message: Message) {
  return { role: message.role, content: message.content, id: message.id };
}

/**
 * Provenance of an extractive summary: the messages whose sentences it still holds (lines dropped
 * by the length cap take their sources with them). An LLM summary paraphrases, so it stands for
 * every message it covered.
 */
function sourcesOf(summary: string, messages: Message[]): string[] {
  const lines = summary.split('\n').map((line) => line.replace(/^-\s*(User|Assistant)\s*[:：]\s*/u, '').replace(/…$/u, '').trim());
  return messages.filter((m) => lines.some((line) => line.length > 3 && m.content.includes(line))).map((m) => m.id);
}

async function summariseWithModel(models: Models, previous: string | null, messages: Message[]): Promise<string> {
  const { text } = await generateText({
    model: models.memory!,
    instructions:
      'You maintain the running summary of a conversation. Update the previous summary with the new messages. Keep names, numbers, dates, decisions and everything the user said about themselves. Keep any wording a person wrote into the previous summary. Answer with the summary only, as short bullet lines, in the language of the conversation.',
    prompt: `Previous summary:\n${previous ?? '(none)'}\n\nNew messages:\n${messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`).join('\n')}`,
    maxRetries: 1,
  });
  return text.trim();
}
