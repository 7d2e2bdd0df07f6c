import { insertEpisode } from '@/db/episodes';
import { embedTexts } from '../embed';
import type { PostTurnWork } from '../post-turn';
import { loadTurn } from './turn-messages';

/** Indexes a completed turn (question + reply) as one episode, by meaning and by characters. */
export const indexEpisode: PostTurnWork = {
  kind: 'index_episode',
  async run({ job, models }) {
    const turn = await loadTurn(job.userId, job.messageId);
    if (!turn || turn.questions.length === 0 || turn.answer.status === 'failed' || turn.answer.status === 'streaming') return;
    const first = turn.questions[0];
    const content = [...turn.questions.map((q) => `User: ${q.content.trim()}`), `Assistant: ${turn.answer.content.trim()}`].join('\n');
    const [embedding] = await embedTexts(models, [content]);
    await insertEpisode({
      userId: job.userId,
      conversationId: job.conversationId,
      userMessageId: first.id,
      assistantMessageId: turn.answer.id,
      content,
      embedding,
      createdAt: first.createdAt,
    });
  },
};
