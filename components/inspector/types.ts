import type { TurnRecord as BuiltTurnRecord } from '@/lib/memory/turn-record';

// What the inspector reads. The turn record's type comes from the server code that builds it
// (a type-only import: nothing of lib/ reaches the browser bundle), plus what a memory deletion
// writes into a stored record afterwards.

/** Who removed deleted memory from a record, when, and why (`by` is `user:<id>`). */
export type RedactionNote = { at: string; by: string; reason: string };
/** One redaction of a record: the note and how many recalled items it changed. */
export type RecordRedaction = RedactionNote & { items: number };

/** A recalled item; `redacted` is set when deleted memory was removed from it (its text then reads `[redacted]`). */
export type RecalledItem = BuiltTurnRecord['recalled'][number] & { redacted?: RedactionNote };

export type TurnRecord = Omit<BuiltTurnRecord, 'recalled' | 'attempt' | 'firstTokenMs'> & {
  recalled: RecalledItem[];
  /** Time to first token, ms from the start of generation (absent in records older than it; null when no text came). */
  firstTokenMs?: number | null;
  /** 1 for the first answer, 2 after one Retry, … (absent in records older than Retry-in-place). */
  attempt?: number;
  /** Every redaction applied to this record since it was stored, oldest first. */
  redactions?: RecordRedaction[];
};

/** The text memlens writes where deleted memory was. */
export const REDACTED = '[redacted]';
export type BudgetReport = NonNullable<TurnRecord['budget']>;
export type BudgetDecision = BudgetReport['decisions'][number];
export type RetrievalRun = TurnRecord['runs'][number];
export type BlockName = 'required' | 'facts' | 'summary' | 'episodes' | 'history';

/** GET /api/messages/:id/context */
export type TurnContext = {
  context: TurnRecord;
  requestId: string;
  attempt?: number;
  /** The records of earlier attempts at this reply (a Retry rewrites it in place), newest first. */
  priorAttempts?: PriorAttempt[];
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
  /** Where each source message stated it (UTF-16 offsets into the message's content). */
  sources?: Array<{ messageId: string; spanStart: number | null; spanEnd: number | null }>;
  conversationId: string | null;
  supersededBy?: string | null;
  createdAt?: string;
  updatedAt: string;
};

export type FactEvent = {
  id?: string;
  event: 'ADD' | 'UPDATE' | 'DELETE' | 'NONE' | 'EDIT' | 'MOVE';
  oldContent: string | null;
  newContent: string | null;
  actor: string;
  sourceMessageId?: string | null;
  createdAt: string;
};

export type PriorAttempt = { attempt: number; requestId: string; createdAt: string; record: TurnRecord };

/** GET /api/memory: what "forget everything" would remove now, and what stays. */
export type MemoryCounts = { removed: Record<string, number>; kept: { conversations: number; messages: number } };

/** DELETE /api/memory */
export type ForgetResult = { deleted: Record<string, number>; recordsRedacted: number };

/** DELETE /api/facts/:id */
export type FactDeleteResult = { deleted: string; messagesMarked: number; recordsRedacted: number };

/** POST /api/messages/:id/replay: a past turn's context assembled again and compared (type-only, from the server code). */
export type { ReplayOptions, ReplayResult as ReplayResponse } from '@/lib/memory/replay';
