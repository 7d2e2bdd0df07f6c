import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { AppShell } from '@/components/app-shell';
import { Chat } from '@/components/chat';
import { Inspector } from '@/components/inspector/inspector';
import { toChatMessage } from '@/components/types';
import { currentUser, modelInfo } from '@/lib/services/account';
import { conversationSummaries, findConversation, toSummary } from '@/lib/services/conversations';
import { conversationMessages, toStoredMessage } from '@/lib/services/messages';
import { isUuid } from '@/lib/shared/uuid';

type Props = { params: Promise<{ id: string }> };

/** The user's conversation with this id, or undefined (someone else's does not exist for them). */
const loadConversation = cache(async (id: string) => {
  if (!isUuid(id)) return undefined;
  const user = await currentUser();
  if (!user) return undefined;
  const conversation = await findConversation(user.id, id);
  return conversation ? { user, conversation } : undefined;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await loadConversation((await params).id);
  return { title: found?.conversation.title ?? 'Conversation not found' };
}

export default async function ConversationPage({ params }: Props) {
  const found = await loadConversation((await params).id);
  if (!found) notFound();
  const { user, conversation } = found;

  const [messages, conversations] = await Promise.all([
    conversationMessages({ userId: user.id, conversationId: conversation.id }),
    conversationSummaries(user.id),
  ]);
  const model = modelInfo();

  return (
    <AppShell conversations={conversations} model={model} inspector={<Inspector key={conversation.id} conversationId={conversation.id} />}>
      <Chat
        key={conversation.id}
        conversation={toSummary(conversation)}
        initialMessages={messages.map((m) => toChatMessage(toStoredMessage(m)))}
        model={model}
      />
    </AppShell>
  );
}
