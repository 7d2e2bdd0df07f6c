import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { AppShell } from '@/components/app-shell';
import { Chat } from '@/components/chat';
import { Inspector } from '@/components/inspector/inspector';
import { conversationSummaries, currentUser, modelInfo, toStoredMessage, toSummary, UUID_SHAPE } from '@/components/server-data';
import { toChatMessage } from '@/components/types';
import { getConversation } from '@/db/conversations';
import { conversationMessages } from '@/lib/messages';

type Props = { params: Promise<{ id: string }> };

/** The user's conversation with this id, or undefined (someone else's does not exist for them). */
const loadConversation = cache(async (id: string) => {
  if (!UUID_SHAPE.test(id)) return undefined;
  const user = await currentUser();
  if (!user) return undefined;
  const conversation = await getConversation(user.id, id);
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
