import type { withSources } from '@/db/facts';
import type { EpisodeListing, MemoryUsage } from '@/db/memory-page';
import type { Summary } from '@/db/schema';
import type { listSummaryVersions } from '@/db/summaries';
import type { BlockName as MemoryBlockName } from '@/lib/memory/context/budget';
import type { TurnRecord as BuiltTurnRecord } from '@/lib/memory/context/turn-record';
import type { WhyNotRecalled } from '@/lib/memory/context/why-not-recalled';
import type { forgetEverything } from '@/lib/memory/corrections';
import type { undoChange } from '@/lib/memory/corrections/undo';
import type { RedactionNote } from '@/lib/memory/edits/audit-redaction';
import type { UndoRef as ServerUndoRef } from '@/lib/memory/edits/undo-capture';
import type { SummarySchedule } from '@/lib/memory/jobs/summary-schedule';
import type { PageFact as ServerPageFact } from '@/lib/memory/memory-page';
import type { REDACTED as SERVER_REDACTED } from '@/lib/memory/redaction';
import type { FACT_SLOTS } from '@/lib/memory/rules/fact-types';
import type { memoryChangesOfReply } from '@/lib/services/corrections';
import type { factWithHistory, memoryCountsOf } from '@/lib/services/memory';
import type { deleteMessage, messageRemovalPlan } from '@/lib/services/messages';
import type { recentChangesOf } from '@/lib/services/recent-changes';
import type { turnContext } from '@/lib/turn-context';
import type { Json, JsonResult } from './json';

// What the client reads from the API, typed from the server code that answers it (type-only
// imports: nothing of lib/ or db/ reaches the browser bundle). The turn record adds what a memory
// deletion writes into a stored record afterwards.

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
export type SummaryResponse = { summary: ConversationSummaryBlock | null; versions: SummaryVersion[]; schedule: SummarySchedule };

/** A fact as the API shows it: with its sources, without its embedding. */
export type Fact = JsonResult<typeof withSources>[number];
export type FactStatus = Fact['status'];
export type FactEvent = JsonResult<typeof factWithHistory>['history'][number];

/** GET /api/memory: what "forget everything" would remove now, what stays, and for how many minutes it can be undone. */
export type MemoryCounts = JsonResult<typeof memoryCountsOf>;

/** GET /api/messages/:id/removal: what deleting the message would do, and for how many minutes the deletion can be undone. */
export type MessageRemovalPlan = JsonResult<typeof messageRemovalPlan> & { undoMinutes: number };

/** DELETE /api/messages/:id: what the deletion did, and how to undo it. */
export type MessageRemoval = JsonResult<typeof deleteMessage> & { deleted: string };

/** GET /api/corrections: a page of the user's recent changes to memory. */
export type RecentChangesPage = JsonResult<typeof recentChangesOf>;
export type RecentChange = RecentChangesPage['changes'][number];

/** DELETE /api/memory */
export type ForgetResult = JsonResult<typeof forgetEverything>;

/** How a correction just made can be undone (every correction route answers it as `undo`). */
export type UndoRef = ServerUndoRef;

/** DELETE /api/facts/:id, DELETE /api/episodes/:id: what went with the deleted memory. */
export type MemoryDeleteResult = { deleted: string; messagesMarked: number; recordsRedacted: number; undo: UndoRef | null };

/** GET /api/messages/:id/memory-changes: what a reply's turn learned, replaced or forgot. */
export type MemoryChanges = JsonResult<typeof memoryChangesOfReply>;
export type MemoryChange = MemoryChanges['changes'][number];

/** POST /api/corrections/:id/undo */
export type UndoResult = JsonResult<typeof undoChange>;

// What the Memory page's routes answer: the server's own types, dates as ISO strings.

/** GET /api/facts: a fact with its sources located and the replies that used it. */
export type PageFact = Json<ServerPageFact>;

/** GET /api/facts: a page of facts, newest change first. */
export type FactPage = { facts: PageFact[]; nextCursor: string | null; total: number };

/** POST /api/facts {content, slot?} */
export type AddFactResult = { fact: PageFact; replaced: string | null };

/** A remembered exchange (an episode): what recall can bring back of an earlier turn. */
export type Episode = Json<EpisodeListing & { usedIn: MemoryUsage }>;

/** GET /api/episodes */
export type EpisodePage = { episodes: Episode[]; nextCursor: string | null; total: number };

/** DELETE /api/episodes/:id */
export type EpisodeDeleteResult = MemoryDeleteResult;

/** A kind of fact (`slot`). */
export type FactKind = (typeof FACT_SLOTS)[number];

/** POST /api/messages/:id/replay: a past turn's context assembled again and compared (type-only, from the server code). */
export type { ReplayOptions, ReplayResult as ReplayResponse } from '@/lib/memory/context/replay';

/** GET /api/messages/:id/why?item=: why a memory item was or was not in a reply's context. */
export type WhyAnswer = Json<WhyNotRecalled>;
