import { describe, expect, it } from 'vitest';
import { GET as getConversation, PATCH as renameConversation, DELETE as deleteConversation } from '@/app/api/conversations/[id]/route';
import { GET as listMessages, DELETE as clearConversation } from '@/app/api/conversations/[id]/messages/route';
import { GET as getSummary, PUT as editSummary, DELETE as clearSummary } from '@/app/api/conversations/[id]/summary/route';
import { GET as getFact, PATCH as editFact, DELETE as deleteFact } from '@/app/api/facts/[id]/route';
import { GET as getMessage, DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { GET as getEpisode, DELETE as deleteEpisode } from '@/app/api/episodes/[id]/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { GET as replayGet, POST as replayPost } from '@/app/api/messages/[id]/replay/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as staffAuditEntry } from '@/app/api/staff/audit/[id]/route';
import { GET as staffConversation } from '@/app/api/staff/conversations/[id]/route';
import { DELETE as staffClearSummary } from '@/app/api/staff/conversations/[id]/summary/route';
import { PATCH as staffEditFact, DELETE as staffDeleteFact } from '@/app/api/staff/facts/[id]/route';
import { POST as staffRetryJob } from '@/app/api/staff/jobs/[id]/retry/route';
import { GET as staffTurn } from '@/app/api/staff/messages/[id]/context/route';
import { GET as staffMessage } from '@/app/api/staff/messages/[id]/route';
import { GET as staffReplayGet, POST as staffReplayPost } from '@/app/api/staff/messages/[id]/replay/route';
import { GET as staffUser } from '@/app/api/staff/users/[id]/route';
import { getSql } from '@/db/client';
import { params, readChunks } from './support/app';
import { browser, member } from './support/auth';
import { fillerTurns, importTurns, postTurnSettled } from './support/memory';

/**
 * Every route that takes an id, tried by the wrong people: another user gets 404 (never 403, so
 * existence is not leaked), a user on a staff route 403, a signed-out caller 401. The owner's own
 * call succeeds, so a 404 is about access, not a bad id.
 */
type Ids = { conversation: string; message: string; reply: string; fact: string; episode: string; job: string; audit: string; user: string };
type Case = { route: string; call: (b: ReturnType<typeof browser>, ids: Ids) => Promise<Response> };

const json = (b: ReturnType<typeof browser>, path: string, method: string, body?: unknown) => b.request(path, { method, body });

const userRoutes: Case[] = [
  { route: 'GET /api/conversations/:id', call: (b, i) => getConversation(b.request(`/api/conversations/${i.conversation}`), params({ id: i.conversation })) },
  { route: 'PATCH /api/conversations/:id', call: (b, i) => renameConversation(json(b, `/api/conversations/${i.conversation}`, 'PATCH', { title: 'x' }), params({ id: i.conversation })) },
  { route: 'GET /api/conversations/:id/messages', call: (b, i) => listMessages(b.request(`/api/conversations/${i.conversation}/messages`), params({ id: i.conversation })) },
  { route: 'GET /api/conversations/:id/summary', call: (b, i) => getSummary(b.request(`/api/conversations/${i.conversation}/summary`), params({ id: i.conversation })) },
  { route: 'PUT /api/conversations/:id/summary', call: (b, i) => editSummary(json(b, `/api/conversations/${i.conversation}/summary`, 'PUT', { content: '- note' }), params({ id: i.conversation })) },
  { route: 'GET /api/messages/:id', call: (b, i) => getMessage(b.request(`/api/messages/${i.message}`), params({ id: i.message })) },
  { route: 'GET /api/messages/:id/context', call: (b, i) => getContext(b.request(`/api/messages/${i.reply}/context`), params({ id: i.reply })) },
  { route: 'GET /api/messages/:id/replay', call: (b, i) => replayGet(b.request(`/api/messages/${i.reply}/replay`), params({ id: i.reply })) },
  { route: 'POST /api/messages/:id/replay', call: (b, i) => replayPost(json(b, `/api/messages/${i.reply}/replay`, 'POST', { window: 4 }), params({ id: i.reply })) },
  { route: 'GET /api/facts/:id', call: (b, i) => getFact(b.request(`/api/facts/${i.fact}`), params({ id: i.fact })) },
  { route: 'PATCH /api/facts/:id', call: (b, i) => editFact(json(b, `/api/facts/${i.fact}`, 'PATCH', { content: 'I live in Bergen' }), params({ id: i.fact })) },
  { route: 'GET /api/episodes/:id', call: (b, i) => getEpisode(b.request(`/api/episodes/${i.episode}`), params({ id: i.episode })) },
  // Destructive ones last: the owner's success removes what they act on.
  { route: 'DELETE /api/episodes/:id', call: (b, i) => deleteEpisode(json(b, `/api/episodes/${i.episode}`, 'DELETE'), params({ id: i.episode })) },
  { route: 'DELETE /api/conversations/:id/summary', call: (b, i) => clearSummary(json(b, `/api/conversations/${i.conversation}/summary`, 'DELETE'), params({ id: i.conversation })) },
  { route: 'DELETE /api/facts/:id', call: (b, i) => deleteFact(json(b, `/api/facts/${i.fact}`, 'DELETE'), params({ id: i.fact })) },
  { route: 'DELETE /api/messages/:id', call: (b, i) => removeMessage(json(b, `/api/messages/${i.message}`, 'DELETE'), params({ id: i.message })) },
  { route: 'DELETE /api/conversations/:id/messages', call: (b, i) => clearConversation(json(b, `/api/conversations/${i.conversation}/messages`, 'DELETE'), params({ id: i.conversation })) },
  { route: 'DELETE /api/conversations/:id', call: (b, i) => deleteConversation(json(b, `/api/conversations/${i.conversation}`, 'DELETE'), params({ id: i.conversation })) },
];

const staffRoutes: Case[] = [
  { route: 'GET /api/staff/users/:id', call: (b, i) => staffUser(b.request(`/api/staff/users/${i.user}`), params({ id: i.user })) },
  { route: 'GET /api/staff/conversations/:id', call: (b, i) => staffConversation(b.request(`/api/staff/conversations/${i.conversation}`), params({ id: i.conversation })) },
  { route: 'GET /api/staff/messages/:id', call: (b, i) => staffMessage(b.request(`/api/staff/messages/${i.reply}`), params({ id: i.reply })) },
  { route: 'GET /api/staff/messages/:id/context', call: (b, i) => staffTurn(b.request(`/api/staff/messages/${i.reply}/context`), params({ id: i.reply })) },
  { route: 'GET /api/staff/messages/:id/replay', call: (b, i) => staffReplayGet(b.request(`/api/staff/messages/${i.reply}/replay`), params({ id: i.reply })) },
  { route: 'POST /api/staff/messages/:id/replay', call: (b, i) => staffReplayPost(json(b, `/api/staff/messages/${i.reply}/replay`, 'POST', { window: 4 }), params({ id: i.reply })) },
  { route: 'GET /api/staff/audit/:id', call: (b, i) => staffAuditEntry(b.request(`/api/staff/audit/${i.audit}`), params({ id: i.audit })) },
  { route: 'POST /api/staff/jobs/:id/retry', call: (b, i) => staffRetryJob(json(b, `/api/staff/jobs/${i.job}/retry`, 'POST'), params({ id: i.job })) },
  { route: 'PATCH /api/staff/facts/:id', call: (b, i) => staffEditFact(json(b, `/api/staff/facts/${i.fact}`, 'PATCH', { content: 'I live in Bergen', reason: 'test of access' }), params({ id: i.fact })) },
  { route: 'DELETE /api/staff/conversations/:id/summary', call: (b, i) => staffClearSummary(json(b, `/api/staff/conversations/${i.conversation}/summary`, 'DELETE', { reason: 'test of access' }), params({ id: i.conversation })) },
  { route: 'DELETE /api/staff/facts/:id', call: (b, i) => staffDeleteFact(json(b, `/api/staff/facts/${i.fact}`, 'DELETE', { reason: 'test of access' }), params({ id: i.fact })) },
];

async function ownerWithData(owner: ReturnType<typeof browser> & { email: string }): Promise<Ids> {
  const [{ id: user }] = await getSql()`select id from users where email = ${owner.email}`;
  const conversation = await importTurns(user, [['I live in Oslo.', 'Nice.'], ...fillerTurns(12)]);
  const [message] = await getSql()`select id from messages where conversation_id = ${conversation} and role = 'user' order by created_at limit 1`;
  const chunks = await readChunks(await chat(owner.request('/api/chat', { body: { conversationId: conversation, message: { text: 'Where do I live?' } } })));
  const reply = { id: chunks.find((c) => c.type === 'start')!.messageId as string };
  await postTurnSettled(user);
  const [fact] = await getSql()`select id from facts where user_id = ${user}`;
  const [job] = await getSql()`select id from jobs where user_id = ${user} limit 1`;
  const [episode] = await getSql()`select id from episodes where user_id = ${user} limit 1`;
  const [audit] = await getSql()`insert into audit_log (actor, actor_role, target_user_id, object_type, action) values ('test', 'system', ${user}, 'probe', 'insert') returning id`;
  return { conversation, message: message.id, reply: reply.id, fact: fact.id, episode: episode.id, job: job.id, audit: String(audit.id), user };
}

describe('access to every route that takes an id', () => {
  it(`${userRoutes.length} user routes: another user 404, signed out 401, the owner 2xx`, async () => {
    const owner = await member();
    const stranger = await member();
    const ids = await ownerWithData(owner);
    for (const { route, call } of userRoutes) {
      expect((await call(stranger, ids)).status, `${route} for another user`).toBe(404);
      expect((await call(browser(null), ids)).status, `${route} signed out`).toBe(401);
      expect((await call(owner, ids)).status, `${route} for the owner`).toBeLessThan(300);
    }
  });

  it(`${staffRoutes.length} staff routes: a user 403 (even on their own data), signed out 401, staff 2xx`, async () => {
    const owner = await member();
    const staff = await member({ staff: true });
    const ids = await ownerWithData(owner);
    for (const { route, call } of staffRoutes) {
      expect((await call(owner, ids)).status, `${route} for a user`).toBe(403);
      expect((await call(browser(null), ids)).status, `${route} signed out`).toBe(401);
      expect((await call(staff, ids)).status, `${route} for staff`).toBeLessThan(300);
    }
  });
});
