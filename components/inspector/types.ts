import type { TurnRecord } from '@/lib/memory/turn-record';

// What the inspector reads. The turn record's type comes from the server code that builds it
// (a type-only import: nothing of lib/ reaches the browser bundle).
export type { TurnRecord };

export type RecalledItem = TurnRecord['recalled'][number];
export type BudgetReport = NonNullable<TurnRecord['budget']>;
export type BudgetDecision = BudgetReport['decisions'][number];
export type RetrievalRun = TurnRecord['runs'][number];
export type BlockName = 'required' | 'facts' | 'summary' | 'episodes' | 'history';

/** GET /api/messages/:id/context */
export type TurnContext = {
  context: TurnRecord;
  requestId: string;
  citations: Array<{ items: unknown[]; citedKeys: string[]; retrievalRuns: unknown[] }>;
};

export type SummaryAction = 'refresh' | 'edit' | 'clear';

/** A conversation's rolling summary (dates as ISO strings). */
export type ConversationSummaryBlock = {
  content: string;
  version: number;
  coveredMessageCount: number;
  lastCoveredMessageId: string | null;
  sourceMessageIds?: string[];
  updatedBy: string;
  updatedAt: string;
};

export type SummaryVersion = {
  version: number;
  action: SummaryAction;
  actor: string;
  before: string | null;
  after: string | null;
  coveredMessageCount?: number;
  createdAt: string;
};

/** GET /api/conversations/:id/summary */
export type SummaryResponse = { summary: ConversationSummaryBlock | null; versions: SummaryVersion[] };

export type FactStatus = 'active' | 'superseded' | 'deleted';

export type Fact = {
  id: string;
  slot: string;
  content: string;
  value: string;
  status: FactStatus;
  validFrom: string;
  validTo: string | null;
  sourceMessageIds: string[];
  conversationId: string | null;
  supersededBy?: string | null;
  createdAt?: string;
  updatedAt: string;
};

export type FactEvent = {
  id?: string;
  event: 'ADD' | 'UPDATE' | 'DELETE' | 'NONE' | 'EDIT';
  oldContent: string | null;
  newContent: string | null;
  actor: string;
  sourceMessageId?: string | null;
  createdAt: string;
};
