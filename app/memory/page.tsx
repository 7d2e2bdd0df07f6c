import type { Metadata } from 'next';
import { AppShell } from '@/components/app-shell';
import { MemoryPage } from '@/components/memory-page/memory-page';
import { currentUser, modelInfo } from '@/lib/services/account';
import { conversationSummaries } from '@/lib/services/conversations';

export const metadata: Metadata = { title: 'Memory' };

/** The user's own page to see and correct what memlens remembers about them. */
export default async function Memory() {
  const user = await currentUser();
  const conversations = user ? await conversationSummaries(user.id) : [];
  const model = modelInfo();
  return (
    <AppShell conversations={conversations} model={model}>
      <MemoryPage conversations={conversations} model={model} />
    </AppShell>
  );
}
