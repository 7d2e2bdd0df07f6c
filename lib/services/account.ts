import { headers } from 'next/headers';
import { cache } from 'react';
import { userRowsForExport } from '@/db/account-export';
import type { User } from '@/db/schema';
import { deleteUser, memoryCounts } from '@/db/users';
import { audit, userActor } from '../audit';
import { getConfig } from '../config';
import { getModels } from '../llm';
import { messageTokenLimit } from '../memory/context/budget-policy';
import { userFromHeaders } from '../session';

// For the pages: they read the session cookie, so every page using `currentUser` is dynamic.

/** The signed-in member, else this browser's guest; undefined before its first write (a page view makes nothing). */
export const currentUser = cache(async () => userFromHeaders(await headers()));

/** The chat model the app answers with, as the client shows it, and how long a message may be (characters, and tokens as counted in `encoding`). */
export function modelInfo() {
  const models = getModels();
  const config = getConfig();
  return {
    chat: models.chatModelId,
    offline: models.offline,
    maxMessageChars: config.MAX_MESSAGE_CHARS,
    ...messageTokenLimit(config, models.chatModelId),
  };
}

/** Who this browser is, for the client; before its first write a guest with no id yet. */
export function whoIs(user: User | undefined) {
  return user
    ? { id: user.id, kind: user.kind, role: user.role, email: user.email, name: user.displayName }
    : { id: null, kind: 'guest' as const, role: 'user' as const, email: null, name: null };
}

/** What deleting the account removes, counted: the numbers its dialog shows. */
export async function accountContents(userId: string) {
  const { removed, kept } = await memoryCounts(userId);
  return {
    conversations: kept.conversations,
    messages: kept.messages,
    facts: removed.facts,
    episodes: removed.episodes,
    summaries: removed.summaries,
  };
}

/**
 * The user and everything they own (conversations, messages, memory, turn records, their sign-in)
 * go at once; the audit log keeps that it happened and how much went, never the content.
 */
export async function deleteAccount(user: User, request: Request): Promise<void> {
  const before = { kind: user.kind, ...(await accountContents(user.id)) };
  await deleteUser(user.id);
  await audit(userActor(user, request), user.id, [{ objectType: 'user', objectId: user.id, action: 'delete', before, after: null }]);
}

/**
 * "Export my data": everything the user owns, as one JSON document. Messages, the summary and its
 * versions sit under their conversation; each fact carries its history of events.
 */
export async function exportAccount(userId: string) {
  const rows = await userRowsForExport(userId);
  const byConversation = <T extends { conversationId: string | null }>(items: T[], conversationId: string) =>
    items.filter((item) => item.conversationId === conversationId).map(({ conversationId: _, ...rest }) => rest);
  return {
    format: 'memlens-export',
    version: 1,
    exportedAt: new Date().toISOString(),
    user: rows.user,
    conversations: rows.conversations.map(({ userId: _, ...conversation }) => ({
      ...conversation,
      messages: byConversation(rows.messages, conversation.id),
      summary: byConversation(rows.summaries.map(withoutOwner), conversation.id)[0] ?? null,
      summaryHistory: byConversation(rows.summaryVersions.map(withoutOwner), conversation.id),
    })),
    facts: rows.facts.map((fact) => ({
      ...fact,
      history: rows.factEvents.filter((event) => event.factId === fact.id).map(({ factId: _, ...event }) => event),
    })),
    episodes: rows.episodes,
    turnRecords: rows.turnRecords.map(withoutOwner),
  };
}

const withoutOwner = <T extends { userId: string }>({ userId: _, ...rest }: T) => rest;
