import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearConversation, GET as listMessages } from '@/app/api/conversations/[id]/messages/route';
import { DELETE as deleteConversation, GET as getConversation, PATCH as renameConversation } from '@/app/api/conversations/[id]/route';
import { DELETE as clearSummary, PUT as editSummary, GET as getSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as undoChange } from '@/app/api/corrections/[id]/undo/route';
import { DELETE as deleteEpisode, GET as getEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact, PATCH as editFact, GET as getFact } from '@/app/api/facts/[id]/route';
import { GET as getImport } from '@/app/api/import/[id]/route';
import { POST as postImport } from '@/app/api/import/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { GET as memoryChanges } from '@/app/api/messages/[id]/memory-changes/route';
import { GET as removalPlan } from '@/app/api/messages/[id]/removal/route';
import { GET as replayGet, POST as replayPost } from '@/app/api/messages/[id]/replay/route';
import { GET as getMessage, DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { GET as whyGet } from '@/app/api/messages/[id]/why/route';
import { GET as staffAuditEntry } from '@/app/api/staff/audit/[id]/route';
import { GET as staffConversation } from '@/app/api/staff/conversations/[id]/route';
import { DELETE as staffClearSummary } from '@/app/api/staff/conversations/[id]/summary/route';
import { DELETE as staffDeleteFact, PATCH as staffEditFact } from '@/app/api/staff/facts/[id]/route';
import { POST as staffRetryImport } from '@/app/api/staff/imports/[id]/retry/route';
import { POST as staffRetryJob } from '@/app/api/staff/jobs/[id]/retry/route';
import { GET as staffTurn } from '@/app/api/staff/messages/[id]/context/route';
import { GET as staffReplayGet, POST as staffReplayPost } from '@/app/api/staff/messages/[id]/replay/route';
import { GET as staffMessage } from '@/app/api/staff/messages/[id]/route';
import { GET as staffWhyGet } from '@/app/api/staff/messages/[id]/why/route';
import { GET as staffUser } from '@/app/api/staff/users/[id]/route';
import { getSql } from '@/db/client';
import { params, readChunks } from './app';
import type { browser } from './auth';
import { importFinished } from './imports';
import { fillerTurns, importTurns, postTurnSettled } from './memory';

/**
 * Every route that takes an id, with how to call it (shared by route-access.test.ts and
 * isolation.test.ts). A mutation's first body is its usual one; `bodies` lists other plausible
 * ones, which the isolation probe tries as well.
 */
export type Ids = {
  conversation: string;
  message: string;
  reply: string;
  fact: string;
  episode: string;
  job: string;
  audit: string;
  user: string;
  import: string;
  /** An import that died (cut off JOB_MAX_ATTEMPTS times), for staff to retry. */
  deadImport: string;
  /** An undoable change (a fact the owner's reply learned). */
  change: string;
};
export type Browser = ReturnType<typeof browser>;
export type Case = { route: string; call: (b: Browser, ids: Ids, body?: unknown) => Promise<Response>; bodies?: unknown[] };

const json = (b: Browser, path: string, method: string, body?: unknown) => b.request(path, { method, body });

export const userRoutes: Case[] = [
  {
    route: 'GET /api/conversations/:id',
    call: (b, i) => getConversation(b.request(`/api/conversations/${i.conversation}`), params({ id: i.conversation })),
  },
  {
    route: 'PATCH /api/conversations/:id',
    call: (b, i, body = { title: 'x' }) =>
      renameConversation(json(b, `/api/conversations/${i.conversation}`, 'PATCH', body), params({ id: i.conversation })),
    bodies: [{ title: 'Renamed by someone else' }, { title: '别人改的标题' }],
  },
  {
    route: 'GET /api/conversations/:id/messages',
    call: (b, i) => listMessages(b.request(`/api/conversations/${i.conversation}/messages`), params({ id: i.conversation })),
  },
  {
    route: 'GET /api/conversations/:id/summary',
    call: (b, i) => getSummary(b.request(`/api/conversations/${i.conversation}/summary`), params({ id: i.conversation })),
  },
  {
    route: 'PUT /api/conversations/:id/summary',
    call: (b, i, body = { content: '- note' }) =>
      editSummary(json(b, `/api/conversations/${i.conversation}/summary`, 'PUT', body), params({ id: i.conversation })),
    bodies: [{ content: '' }, { content: '- The user lives in Bergen.', version: 1 }],
  },
  { route: 'GET /api/messages/:id', call: (b, i) => getMessage(b.request(`/api/messages/${i.message}`), params({ id: i.message })) },
  {
    route: 'GET /api/messages/:id/context',
    call: (b, i) => getContext(b.request(`/api/messages/${i.reply}/context`), params({ id: i.reply })),
  },
  {
    route: 'GET /api/messages/:id/why',
    call: (b, i) => whyGet(b.request(`/api/messages/${i.reply}/why?item=fact:${i.fact}`), params({ id: i.reply })),
  },
  {
    route: 'GET /api/messages/:id/memory-changes',
    call: (b, i) => memoryChanges(b.request(`/api/messages/${i.reply}/memory-changes`), params({ id: i.reply })),
  },
  {
    route: 'GET /api/messages/:id/removal',
    call: (b, i) => removalPlan(b.request(`/api/messages/${i.message}/removal`), params({ id: i.message })),
  },
  {
    route: 'GET /api/messages/:id/replay',
    call: (b, i) => replayGet(b.request(`/api/messages/${i.reply}/replay`), params({ id: i.reply })),
  },
  {
    route: 'POST /api/messages/:id/replay',
    call: (b, i, body = { window: 4 }) => replayPost(json(b, `/api/messages/${i.reply}/replay`, 'POST', body), params({ id: i.reply })),
    bodies: [{}, { mode: 'stored' }, { mode: 'today', episodeScope: 'user', factsTopK: 50, episodesTopK: 50, budget: 7_000 }],
  },
  { route: 'GET /api/facts/:id', call: (b, i) => getFact(b.request(`/api/facts/${i.fact}`), params({ id: i.fact })) },
  {
    route: 'PATCH /api/facts/:id',
    call: (b, i, body = { content: 'I live in Bergen' }) =>
      editFact(json(b, `/api/facts/${i.fact}`, 'PATCH', body), params({ id: i.fact })),
    bodies: [{ content: '我住在北京' }],
  },
  { route: 'GET /api/episodes/:id', call: (b, i) => getEpisode(b.request(`/api/episodes/${i.episode}`), params({ id: i.episode })) },
  { route: 'GET /api/import/:id', call: (b, i) => getImport(b.request(`/api/import/${i.import}`), params({ id: i.import })) },
  // Destructive ones last: the owner's success removes what they act on.
  {
    route: 'POST /api/corrections/:id/undo',
    call: (b, i) => undoChange(json(b, `/api/corrections/${i.change}/undo`, 'POST'), params({ id: i.change })),
  },
  {
    route: 'DELETE /api/episodes/:id',
    call: (b, i) => deleteEpisode(json(b, `/api/episodes/${i.episode}`, 'DELETE'), params({ id: i.episode })),
  },
  {
    route: 'DELETE /api/conversations/:id/summary',
    call: (b, i) => clearSummary(json(b, `/api/conversations/${i.conversation}/summary`, 'DELETE'), params({ id: i.conversation })),
  },
  { route: 'DELETE /api/facts/:id', call: (b, i) => deleteFact(json(b, `/api/facts/${i.fact}`, 'DELETE'), params({ id: i.fact })) },
  {
    route: 'DELETE /api/messages/:id',
    call: (b, i) => removeMessage(json(b, `/api/messages/${i.message}`, 'DELETE'), params({ id: i.message })),
  },
  {
    route: 'DELETE /api/conversations/:id/messages',
    call: (b, i) => clearConversation(json(b, `/api/conversations/${i.conversation}/messages`, 'DELETE'), params({ id: i.conversation })),
  },
  {
    route: 'DELETE /api/conversations/:id',
    call: (b, i) => deleteConversation(json(b, `/api/conversations/${i.conversation}`, 'DELETE'), params({ id: i.conversation })),
  },
];

/**
 * The chat route takes its ids in the body. Not in route-access.test.ts's table: the owner's
 * success starts a turn whose background work would race the destructive calls there.
 */
export const chatRoutes: Case[] = [
  {
    route: 'POST /api/chat (a question)',
    call: (b, i) => chat(json(b, '/api/chat', 'POST', { conversationId: i.conversation, message: { text: 'Where do I live?' } })),
  },
  {
    route: 'POST /api/chat (a question in Chinese)',
    call: (b, i) => chat(json(b, '/api/chat', 'POST', { conversationId: i.conversation, message: { text: '我住在哪里？' } })),
  },
  {
    route: 'POST /api/chat (editing a question)',
    call: (b, i) =>
      chat(json(b, '/api/chat', 'POST', { conversationId: i.conversation, message: { id: i.message, text: 'I live in Bergen.' } })),
  },
  {
    route: 'POST /api/chat (regenerate)',
    call: (b, i) => chat(json(b, '/api/chat', 'POST', { conversationId: i.conversation, trigger: 'regenerate-message' })),
  },
];

export const staffRoutes: Case[] = [
  { route: 'GET /api/staff/users/:id', call: (b, i) => staffUser(b.request(`/api/staff/users/${i.user}`), params({ id: i.user })) },
  {
    route: 'GET /api/staff/conversations/:id',
    call: (b, i) => staffConversation(b.request(`/api/staff/conversations/${i.conversation}`), params({ id: i.conversation })),
  },
  {
    route: 'GET /api/staff/messages/:id',
    call: (b, i) => staffMessage(b.request(`/api/staff/messages/${i.reply}`), params({ id: i.reply })),
  },
  {
    route: 'GET /api/staff/messages/:id/why',
    call: (b, i) => staffWhyGet(b.request(`/api/staff/messages/${i.reply}/why?item=fact:${i.fact}`), params({ id: i.reply })),
  },
  {
    route: 'GET /api/staff/messages/:id/context',
    call: (b, i) => staffTurn(b.request(`/api/staff/messages/${i.reply}/context`), params({ id: i.reply })),
  },
  {
    route: 'GET /api/staff/messages/:id/replay',
    call: (b, i) => staffReplayGet(b.request(`/api/staff/messages/${i.reply}/replay`), params({ id: i.reply })),
  },
  {
    route: 'POST /api/staff/messages/:id/replay',
    call: (b, i, body = { window: 4 }) =>
      staffReplayPost(json(b, `/api/staff/messages/${i.reply}/replay`, 'POST', body), params({ id: i.reply })),
    bodies: [{ mode: 'today', episodeScope: 'user' }],
  },
  { route: 'GET /api/staff/audit/:id', call: (b, i) => staffAuditEntry(b.request(`/api/staff/audit/${i.audit}`), params({ id: i.audit })) },
  {
    route: 'POST /api/staff/jobs/:id/retry',
    call: (b, i) => staffRetryJob(json(b, `/api/staff/jobs/${i.job}/retry`, 'POST'), params({ id: i.job })),
  },
  {
    route: 'POST /api/staff/imports/:id/retry',
    call: (b, i) => staffRetryImport(json(b, `/api/staff/imports/${i.deadImport}/retry`, 'POST'), params({ id: i.deadImport })),
  },
  {
    route: 'PATCH /api/staff/facts/:id',
    call: (b, i, body = { content: 'I live in Bergen', reason: 'test of access' }) =>
      staffEditFact(json(b, `/api/staff/facts/${i.fact}`, 'PATCH', body), params({ id: i.fact })),
  },
  {
    route: 'DELETE /api/staff/conversations/:id/summary',
    call: (b, i) =>
      staffClearSummary(
        json(b, `/api/staff/conversations/${i.conversation}/summary`, 'DELETE', { reason: 'test of access' }),
        params({ id: i.conversation }),
      ),
  },
  {
    route: 'DELETE /api/staff/facts/:id',
    call: (b, i) => staffDeleteFact(json(b, `/api/staff/facts/${i.fact}`, 'DELETE', { reason: 'test of access' }), params({ id: i.fact })),
  },
];

/** A member with a conversation past the summary's start, a reply, a fact, an episode, a job, an audit entry and a finished import. */
export async function ownerWithData(owner: Browser & { email: string }): Promise<Ids> {
  const [{ id: user }] = await getSql()`select id from users where email = ${owner.email}`;
  const conversation = await importTurns(user, [['I live in Oslo.', 'Nice.'], ...fillerTurns(12)]);
  const [message] =
    await getSql()`select id from messages where conversation_id = ${conversation} and role = 'user' order by created_at limit 1`;
  const chunks = await readChunks(
    await chat(owner.request('/api/chat', { body: { conversationId: conversation, message: { text: 'Where do I live?' } } })),
  );
  const reply = { id: chunks.find((c) => c.type === 'start')!.messageId as string };
  await postTurnSettled(user);
  const [fact] = await getSql()`select id from facts where user_id = ${user} order by created_at limit 1`;
  const [job] = await getSql()`select id from jobs where user_id = ${user} limit 1`;
  const [episode] = await getSql()`select id from episodes where user_id = ${user} limit 1`;
  const [audit] =
    await getSql()`insert into audit_log (actor, actor_role, target_user_id, object_type, action) values ('test', 'system', ${user}, 'probe', 'insert') returning id`;
  const queued = await postImport(
    owner.request('/api/import', {
      body: {
        title: 'Imported',
        messages: [
          { role: 'user', content: 'Hello. My sister Ingrid plays the cello.' },
          { role: 'assistant', content: 'Hi.' },
        ],
      },
    }),
  );
  const imported = await importFinished(owner, (await queued.json()).import.id);
  await postTurnSettled(user);
  // A change no other route touches: the fact the import learned, not the one the routes edit and delete.
  const [change] =
    await getSql()`select id from undoable_changes where user_id = ${user} and fact_id is distinct from ${fact.id} order by created_at desc limit 1`;
  // As the worker leaves an import cut off every time it ran.
  const [dead] = await getSql()`
    insert into imports (user_id, status, payload, messages_total, replies_total, attempts, error)
    values (${user}, 'dead', '[]', 0, 0, 5, 'Stopped after 5 attempts') returning id`;
  return {
    conversation,
    message: message.id,
    reply: reply.id,
    fact: fact.id,
    episode: episode.id,
    job: job.id,
    audit: String(audit.id),
    user,
    import: imported.id,
    deadImport: dead.id,
    change: change.id,
  };
}
