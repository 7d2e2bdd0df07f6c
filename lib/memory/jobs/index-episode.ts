import { deleteEpisodeOf, type NewEpisode, putEpisodes } from '@/db/episodes';
import type { Scope } from '@/db/history';
import { quotedItemTexts } from '@/db/turns';
import type { Models } from '@/lib/llm';
import { indexTerms } from '@/lib/text/index-terms';
import { ownWords } from '../context/context-layout';
import { embedTexts } from '../embed';
import { FORGOTTEN } from '../redaction';
import { loadTurn, loadTurns, type Turn } from './turn-messages';
import type { JobWork } from './work';

/** Indexes a completed turn (question + reply) as one episode, by meaning and by characters. */
export const indexEpisode: JobWork = {
  kind: 'index_episode',
  ownInputs: true,
  run: ({ job, models }) => indexTurn(job.userId, job.messageId, models, new Map([[job.messageId, job.id]])),
  // An import's turns: read together, embedded in one call, written in one transaction.
  async runMany(jobs, { models }) {
    const [{ userId, conversationId }] = jobs;
    const turns = await loadTurns(
      { userId, conversationId },
      jobs.map((j) => j.messageId),
      'memory',
    );
    await indexTurns(
      { userId, conversationId },
      jobs.map((j) => turns.get(j.messageId)),
      models,
      new Map(jobs.map((j) => [j.messageId, j.id])),
    );
    return new Map();
  },
};

/** (Re)indexes one turn from its messages as memory reads them; a turn with nothing left to index has no episode. */
async function indexTurn(userId: string, assistantMessageId: string, models: Models, jobOf: Map<string, string>): Promise<void> {
  const turn = await loadTurn(userId, assistantMessageId);
  if (turn) await indexTurns({ userId, conversationId: turn.answer.conversationId }, [turn], models, jobOf);
}

/** `jobOf`: the job indexing each turn, by its reply's id; a turn whose job was queued again meanwhile is not written (see `putEpisodes`). */
async function indexTurns(scope: Scope, turns: Array<Turn | undefined>, models: Models, jobOf: Map<string, string>): Promise<void> {
  const present = turns.filter((turn) => turn !== undefined);
  const quoted = await quotedItemTexts(
    scope.userId,
    present.map((turn) => turn.answer.id),
  );
  const planned = present.map((turn) => ({ turn, episode: episodeOf(turn, quoted.get(turn.answer.id) ?? []) }));
  const gone = planned.filter((p) => p.episode === 'none').map((p) => p.turn.answer.id);
  const kept = planned.flatMap((p) => (typeof p.episode === 'object' ? [{ turn: p.turn, ...p.episode }] : []));
  const embeddings = await embedTexts(
    models,
    kept.map((k) => k.content),
  );
  // Rare (a failed reply, a turn forgotten whole): one statement each.
  for (const reply of gone) await deleteEpisodeOf(scope.userId, reply);
  await putEpisodes(
    kept.map(({ turn, opener, content, sourceMessageIds }, i): NewEpisode & { sourceMessageIds: string[] } => ({
      userId: scope.userId,
      conversationId: scope.conversationId,
      userMessageId: opener.id,
      assistantMessageId: turn.answer.id,
      content,
      indexTerms: indexTerms(content),
      embedding: embeddings[i],
      createdAt: opener.createdAt,
      sourceMessageIds,
    })),
    jobOf,
  );
}

/**
 * A turn's episode: the message that opens it, its text and sources; 'none' when nothing is left to
 * index, 'later' while the reply is being written. The reply is kept in its own words: what it quoted
 * of memory (`quoted`) is left out, the reply's citations linking to it.
 */
function episodeOf(
  turn: Turn,
  quoted: string[],
): { opener: Turn['answer']; content: string; sourceMessageIds: string[] } | 'none' | 'later' {
  if (turn.answer.status === 'streaming') return 'later';
  const forgotten = (m: { content: string }) => m.content.split(FORGOTTEN).join('').trim() === '';
  // A reply that answers only forgotten questions is not indexed on its own: it would tell what they asked.
  const unanswerable = turn.questions.length === 0 && !turn.answersNothing;
  if (unanswerable || turn.answer.status === 'failed' || [turn.answer, ...turn.questions].every(forgotten)) return 'none';
  const content = [
    ...turn.questions.map((q) => `User: ${q.content.trim()}`),
    `Assistant: ${ownWords(turn.answer.content, quoted).trim()}`,
  ].join('\n');
  // A reply that follows another reply is its own episode, opened by itself.
  const opener = turn.questions[0] ?? turn.answer;
  return { opener, content, sourceMessageIds: [...turn.questions.map((q) => q.id), turn.answer.id] };
}
