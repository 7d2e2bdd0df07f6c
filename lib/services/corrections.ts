import { getFact } from '@/db/facts';
import { getMessage } from '@/db/history';
import { redactionsOf } from '@/db/provenance';
import type { UndoableChange } from '@/db/schema';
import { changesFromMessage, replyJobsPending } from '@/db/undo';
import { DomainError, notFound } from '../errors';
import { FORGOTTEN, readRedacted } from '../memory/redaction';

type MemoryChange = {
  kind: 'learned' | 'replaced' | 'forgotten';
  text?: string;
  previousText?: string;
  sourceMessageId: string;
  undone: boolean;
  undo: { id: string; expiresAt: string } | null;
};

const NOTICE_KIND: Partial<Record<UndoableChange['kind'], MemoryChange['kind']>> = {
  fact_learned: 'learned',
  fact_replaced: 'replaced',
  fact_delete: 'forgotten',
};

/**
 * What a reply's turn changed in memory: facts learned or replaced from the user's message, and a
 * request to forget done, each with how to undo it while it can be. A fact's text is read as it is
 * now, so a fact deleted or edited since is never repeated here; a forgotten thing is never named.
 */
export async function memoryChangesOfReply(userId: string, replyId: string) {
  const reply = await getMessage(userId, replyId);
  if (!reply) throw notFound('Message', replyId);
  if (reply.role !== 'assistant' || !reply.replyTo) throw new DomainError('not_a_reply', `Message ${replyId} is not a reply.`);
  const sourceMessageId = reply.replyTo;
  const [pending, changes, source] = await Promise.all([
    replyJobsPending(userId, replyId),
    changesFromMessage(userId, sourceMessageId),
    getMessage(userId, sourceMessageId),
  ]);
  const textOf = async (factId: string | null) => {
    const fact = factId ? await getFact(userId, factId) : undefined;
    return fact && fact.status !== 'deleted' ? fact.content : undefined;
  };
  const listed: MemoryChange[] = [];
  for (const change of changes) {
    const kind = NOTICE_KIND[change.kind];
    if (!kind) continue;
    const open = !change.undoneAt && change.snapshot !== null && change.expiresAt.getTime() > Date.now();
    listed.push({
      kind,
      ...(kind === 'forgotten' ? {} : { text: await textOf(change.factId) }),
      ...(kind === 'replaced' ? { previousText: await textOf(change.previousFactId) } : {}),
      sourceMessageId,
      undone: change.undoneAt !== null,
      undo: open ? { id: change.id, expiresAt: change.expiresAt.toISOString() } : null,
    });
  }
  return { pending, changes: listed, source: source ? { id: source.id, excerpt: await excerptOf(source) } : null };
}

const EXCERPT_CHARS = 80;

/**
 * The message as the chat may quote it: as written, with what memlens forgot left out (a corrected
 * part stays as the user wrote it, as the chat shows it; no marker is ever shown).
 */
async function excerptOf(message: NonNullable<Awaited<ReturnType<typeof getMessage>>>): Promise<string> {
  const forgotten = (await redactionsOf(message.userId, [message.id])).filter((r) => r.kind === 'forgotten');
  const [read] = await readRedacted([message], 'memory', forgotten);
  const text = read.content.replaceAll(FORGOTTEN, '…').replace(/\s+/gu, ' ').trim();
  const chars = [...text];
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…` : text;
}
