import { redirect } from 'next/navigation';
import { AppShell } from '@/components/app-shell';
import { EmptyState } from '@/components/empty-state';
import { currentUser, modelInfo } from '@/lib/services/account';
import { conversationSummaries } from '@/lib/services/conversations';

/** Opens the newest conversation, or welcomes a user who has none yet. */
export default async function Home() {
  const user = await currentUser();
  const conversations = user ? await conversationSummaries(user.id) : [];
  if (conversations.length > 0) redirect(`/c/${conversations[0].id}`);

  const model = modelInfo();
  return (
    <AppShell conversations={conversations} model={model}>
      <EmptyState model={model} />
    </AppShell>
  );
}
