'use client';

import { FORGET_EVERYTHING_DESCRIPTION, ForgetEverything } from '../forget-everything';
import { FactsSection } from './facts-view';
import { SummarySection } from './summary-section';

/** The Memory tab: this conversation's summary, the facts about the user, and forgetting it all. */
export function MemoryView({ conversationId, onReveal }: { conversationId: string; onReveal: () => void }) {
  return (
    <div>
      <SummarySection conversationId={conversationId} />
      <FactsSection conversationId={conversationId} onReveal={onReveal} />
      <section data-testid="danger-zone" aria-label="Forget everything" className="m-4 rounded-lg border border-danger/30 p-3">
        <h3 className="text-sm font-semibold text-danger">Forget everything</h3>
        <p className="mt-1 text-xs leading-5 text-muted">{FORGET_EVERYTHING_DESCRIPTION}</p>
        <div className="mt-3">
          <ForgetEverything />
        </div>
      </section>
    </div>
  );
}
