import type { getFactHistory, withSources } from '@/db/facts';
import type { Summary } from '@/db/schema';
import type { listSummaryVersions } from '@/db/summaries';
import type { memoryCounts } from '@/db/users';
import type { RedactionNote } from '@/lib/memory/audit-redaction';
import type { BlockName as MemoryBlockName } from '@/lib/memory/budget';
import type { forgetEverything } from '@/lib/memory/corrections';
import type { REDACTED as SERVER_REDACTED } from '@/lib/memory/redaction';
import type { TurnRecord as BuiltTurnRecord } from '@/lib/memory/turn-record';
import type { turnContext } from '@/lib/turn-context';
import type { Json, JsonResult } from '../json';

// What the inspector reads. The turn record's type comes from the server code that builds it
// (a type-only import: nothing of lib/ reaches the browser bundle), plus what a memory deletion
// writes into a stored record afterwards.

/** One redaction of a record: the note and how many recalled items it changed. */
type RecordRedaction = RedactionNote & { items: number };

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
export const REDACTED: typeof SERVER_REDACTED = '[redacted]';
export type BudgetReport = NonNullable<TurnRecord['budget']>;
export type BlockName = 'required' | MemoryBlockName;

type ServerTurnContext = JsonResult<typeof turnContext>;

/** GET /api/messages/:id/context (the stored record is JSON the server does not type: read as the record it was built as). */
export type TurnContext = Omit<ServerTurnContext, 'context' | 'attempt' | 'priorAttempts'> & {
  context: TurnRecord;
  attempt?: number;
  /** The records of earlier attempts at this reply (a Retry rewrites it in place), newest first. */
  priorAttempts?: PriorAttempt[];
};

export type PriorAttempt = Omit<ServerTurnContext['priorAttempts'][number], 'record'> & { record: TurnRecord };

export type SummaryVersion = JsonResult<typeof listSummaryVersions>[number];

/** A conversation's rolling summary, with the messages it stands for. */
type ConversationSummaryBlock = Json<Summary> & { sourceMessageIds?: string[] };

/** GET /api/conversations/:id/summary */
export type SummaryResponse = { summary: ConversationSummaryBlock | null; versions: SummaryVersion[] };

/** A fact as the API shows it: with its sources, without its embedding. */
export type Fact = JsonResult<typeof withSources>[number];
export type FactStatus = Fact['status'];
export type FactEvent = JsonResult<typeof getFactHistory>[number];

/** GET /api/memory: what "forget everything" would remove now, and what stays. */
export type MemoryCounts = JsonResult<typeof memoryCounts>;

/** DELETE /api/memory */
export type ForgetResult = JsonResult<typeof forgetEverything>;

/** DELETE /api/facts/:id, DELETE /api/episodes/:id: what went with the deleted memory. */
export type MemoryDeleteResult = { deleted: string; messagesMarked: number; recordsRedacted: number };

/** POST /api/messages/:id/replay: a past turn's context assembled again and compared (type-only, from the server code). */
export type { ReplayOptions, ReplayResult as ReplayResponse } from '@/lib/memory/replay';
