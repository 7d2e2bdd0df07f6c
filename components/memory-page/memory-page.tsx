'use client';

import { ChatHeader } from '../chat-header';
import { FORGET_EVERYTHING_DESCRIPTION, ForgetEverything } from '../forget-everything';
import type { ConversationSummary, ModelInfo } from '../types';
import { EpisodesPanel } from './episodes-panel';
import { FactsPanel } from './facts-panel';
import { Panel } from './panel';
import { RecentChangesPanel } from './recent-changes-panel';
import { SummariesPanel } from './summaries-panel';

const PARTS = [
  ['facts', 'Facts'],
  ['episodes', 'Exchanges'],
  ['summaries', 'Summaries'],
  ['changes', 'Recent changes'],
  ['forget', 'Forget everything'],
] as const;

/** /memory: everything memlens remembers about the signed-in user, and every way to correct it. */
export function MemoryPage({ conversations, model }: { conversations: ConversationSummary[]; model: ModelInfo }) {
  return (
    <>
      <ChatHeader title="Memory" model={model.chat} offline={model.offline} />
      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="memory-page">
        <div className="mx-auto w-full max-w-3xl space-y-5 px-4 py-6 sm:px-6">
          <div>
            <h2 className="text-xl font-semibold tracking-tight sm:text-2xl">What memlens remembers about you</h2>
            <p className="mt-2 text-[15px] leading-7 text-muted">
              Everything below can be added to a reply’s context. Search it, correct it or delete it: a change applies to every later reply,
              in all your conversations.
            </p>
            <nav aria-label="Parts of this page" className="mt-3 flex flex-wrap gap-1.5">
              {PARTS.map(([id, label]) => (
                <a
                  key={id}
                  href={`#${id}`}
                  className={`rounded-full border px-3 py-1 text-xs font-medium hover:bg-subtle ${
                    id === 'forget' ? 'border-danger/30 text-danger hover:bg-danger-soft' : 'border-line text-muted hover:text-fg'
                  }`}
                >
                  {label}
                </a>
              ))}
            </nav>
          </div>
          <FactsPanel />
          <EpisodesPanel />
          <SummariesPanel initialConversations={conversations} />
          <RecentChangesPanel />
          <Panel id="forget" tone="danger" title="Forget everything" description={FORGET_EVERYTHING_DESCRIPTION}>
            <div data-testid="danger-zone">
              <ForgetEverything />
            </div>
          </Panel>
        </div>
      </div>
    </>
  );
}
