import { headers } from 'next/headers';
import { cache } from 'react';
import type { User } from '@/db/schema';
import { deleteUser } from '@/db/users';
import { getConfig } from '../config';
import { getModels } from '../llm';
import { userFromHeaders } from '../session';

// For the pages: they read the session cookie, so every page using `currentUser` is dynamic.

/** The signed-in member, else this browser's guest; undefined before its first write (a page view makes nothing). */
export const currentUser = cache(async () => userFromHeaders(await headers()));

/** The chat model the app answers with, as the client shows it. */
export function modelInfo() {
  const models = getModels();
  return { chat: models.chatModelId, offline: models.offline, maxMessageChars: getConfig().MAX_MESSAGE_CHARS };
}

/** Who this browser is, for the client; before its first write a guest with no id yet. */
export function whoIs(user: User | undefined) {
  return user
    ? { id: user.id, kind: user.kind, role: user.role, email: user.email, name: user.displayName }
    : { id: null, kind: 'guest' as const, role: 'user' as const, email: null, name: null };
}

/** The user and everything they own (conversations, messages, memory) go at once. */
export const deleteAccount = (userId: string): Promise<void> => deleteUser(userId);
