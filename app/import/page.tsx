import type { Metadata } from 'next';
import { AppShell } from '@/components/app-shell';
import { ImportPage } from '@/components/import-page';
import { currentUser, modelInfo } from '@/lib/services/account';
import { conversationSummaries } from '@/lib/services/conversations';

export const metadata: Metadata = { title: 'Import' };

/** Import a conversation from a JSON file and follow it until it is done. */
export default async function Import() {
  const user = await currentUser();
  const conversations = user ? await conversationSummaries(user.id) : [];
  const model = modelInfo();
  return (
    <AppShell conversations={conversations} model={model}>
      <ImportPage model={model} />
    </AppShell>
  );
}
