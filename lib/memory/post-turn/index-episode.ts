import { deleteEpisodeOf, putEpisode } from '@/db/episodes';
import type { Models } from '@/lib/llm';
import { embedTexts } from '../embed';
import { FORGOTTEN } from '../redaction';
import type { PostTurnWork } from '../post-turn';
import { loadTurn } from './turn-messages';

/** Indexes a completed turn (question + reply) as one episode, by meaning and by characters. */
export const indexEpisode: PostTurnWork = {
  kind: 'index_episode',
  run: ({ job, models }) => indexTurn(job.userId, job.messageId, models),
};

/** (Re)indexes one turn from its messages as memory reads them; a turn with nothing left to index has no episode. */
export async function indexTurn(userId: string, assistantMessageId: string, models: Models): Promise<void> {
  const turn = await loadTurn(userId, assistantMessageId);
  if (!turn || turn.answer.status === 'streaming') return;
  const forgotten = (m: { content: string }) => m.content.split(FORGOTTEN).join('').trim() === '';
  // A reply that answers only forgotten questions is not indexed on its own: it would tell what they asked.
  const unanswerable = turn.questions.length === 0 && !turn.answersNothing;
  if (unanswerable || turn.answer.status === 'failed' || [turn.answer, ...turn.questions].every(forgotten)) {
    await deleteEpisodeOf(userId, assistantMessageId);
    return;
  }
  // A reply that follows another reply is its own episode, opened by itself.
  const first = turn.questions[0] ?? turn.answer;
  const content = [...turn.questions.map((q) => `User: ${q.content.trim()}`), `Assistant: ${turn.answer.content.trim()}`].join('\n');
  const [embedding] = await embedTexts(models, [content]);
  await putEpisode(
    {
      userId,
      conversationId: turn.answer.conversationId,
      userMessageId: first.id,
      assistantMessageId: turn.answer.id,
      content,
      embedding,
      createdAt: first.createdAt,
    },
    [...turn.questions.map((q) => q.id), turn.answer.id],
  );
}
