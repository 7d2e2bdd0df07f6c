import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ConversationPage } from '@/components/staff/conversation-page';
import { requireStaffPage } from '@/lib/services/staff-guard';
import { isUuid } from '@/lib/shared/uuid';

export const metadata: Metadata = { title: 'Conversation' };

/** /staff/conversations/:id?turn=<reply id>: any conversation read-only, and a reply's turn record. */
export default async function StaffConversation({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ turn?: string | string[] }>;
}) {
  await requireStaffPage();
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const { turn } = await searchParams;
  return (
    <ConversationPage
      conversationId={id.toLowerCase()}
      initialTurn={typeof turn === 'string' && isUuid(turn) ? turn.toLowerCase() : null}
    />
  );
}
