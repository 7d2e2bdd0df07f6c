import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';

/** A Postgres full-text `tsvector`, read as its text form (nothing reads it but the search's SQL). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const userKind = pgEnum('user_kind', ['guest', 'member']);
export const userRole = pgEnum('user_role', ['user', 'staff']);

// ── Accounts (better-auth's four tables, under our names; lib/auth.ts maps them) ─────────────────
const authTimestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const authUsers = pgTable('auth_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  // A guest: better-auth's anonymous plugin made this account for a browser's first write.
  isAnonymous: boolean('is_anonymous').notNull().default(false),
  ...authTimestamps,
});

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    ...authTimestamps,
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...authTimestamps,
  },
  (t) => [index('auth_accounts_user_idx').on(t.userId)],
);

export const authVerifications = pgTable('auth_verifications', {
  id: text('id').primaryKey(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  ...authTimestamps,
});

/**
 * better-auth's own request limits (sign-in, sign-up, per client address), kept here rather than in
 * each process's memory, so every server process and instance on this database shares one count.
 */
export const authRateLimits = pgTable('auth_rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

/**
 * The app's user, behind a better-auth account: a guest (an anonymous account, made on a browser's
 * first write) or a member (email and password). A guest who signs up becomes that member; one who
 * signs in to an existing account is merged into it (db/merge-guest.ts).
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: userKind('kind').notNull().default('guest'),
    role: userRole('role').notNull().default('user'),
    // How staff became staff: listed in STAFF_EMAILS (revoked when no longer listed) or granted by hand.
    staffVia: text('staff_via'),
    displayName: text('display_name'),
    email: text('email'),
    authUserId: text('auth_user_id')
      .unique()
      .references(() => authUsers.id, { onDelete: 'set null' }),
    // Where a guest was minted from, to bound guest creation per client address.
    createdFrom: text('created_from'),
    // "Forget everything": messages up to this seq are never indexed, summarised or mined for facts again.
    memoryFloorSeq: bigint('memory_floor_seq', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('users_kind_created_idx').on(t.kind, t.createdAt), index('users_email_idx').on(t.email)],
);

/** A conversation's title until its first question names it. */
export const UNTITLED = 'New conversation';

// The columns that tie a row to its user, conversation or message: it goes when they go.
const ownedBy = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
const inConversation = () =>
  uuid('conversation_id')
    .notNull()
    .references(() => conversations.id, { onDelete: 'cascade' });
const ofMessage = () =>
  uuid('message_id')
    .notNull()
    .references(() => messages.id, { onDelete: 'cascade' });

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedBy(),
    title: text('title').notNull().default(UNTITLED),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_user_updated_idx').on(t.userId, t.updatedAt)],
);

export const messageRole = pgEnum('message_role', ['user', 'assistant']);
export const messageStatus = pgEnum('message_status', ['streaming', 'complete', 'incomplete', 'failed']);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: inConversation(),
    // Denormalised owner so every message query can filter by the signed-in user directly.
    userId: ownedBy(),
    role: messageRole('role').notNull(),
    content: text('content').notNull().default(''),
    parts: jsonb('parts').$type<MessagePart[]>().notNull().default(sql`'[]'::jsonb`),
    status: messageStatus('status').notNull().default('complete'),
    // For an assistant message: the user message it answers.
    replyTo: uuid('reply_to'),
    error: text('error'),
    model: text('model'),
    // Free-form provenance, e.g. { diaId } for imported benchmark turns.
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Breaks ties between rows written in the same microsecond (a user message and its placeholder).
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [index('messages_conversation_created_idx').on(t.conversationId, t.createdAt, t.seq), index('messages_user_idx').on(t.userId)],
);

export type MessagePart = { type: 'text'; text: string };
export type User = typeof users.$inferSelect;
export type Conversation = typeof conversations.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type MessageStatus = Message['status'];

// ── Memory ────────────────────────────────────────────────────────────────────
// Vectors are stored at a fixed size; lib/memory/embed.ts fits a provider's output to it.
export const EMBEDDING_SIZE = 512;

/** The rolling summary: one current row per conversation (a memory block). */
export const summaries = pgTable('summaries', {
  conversationId: uuid('conversation_id')
    .primaryKey()
    .references(() => conversations.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  version: integer('version').notNull(),
  coveredMessageCount: integer('covered_message_count').notNull(),
  // Position (created_at, seq) of the last covered message: a position, not an id, so it survives
  // that message being edited away. Null: covers nothing yet.
  coveredUntilAt: timestamp('covered_until_at', { withTimezone: true, precision: 6, mode: 'string' }),
  coveredUntilSeq: bigint('covered_until_seq', { mode: 'number' }),
  // The clear point: messages up to this seq are never summarised again.
  floorSeq: bigint('floor_seq', { mode: 'number' }).notNull().default(0),
  // 'system' for a refresh, 'user' when edited by hand: an edited summary is the base of the next refresh.
  updatedBy: text('updated_by').notNull(),
  updatedAt: updatedAt(),
});

export const summaryVersions = pgTable(
  'summary_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: inConversation(),
    userId: ownedBy(),
    version: integer('version').notNull(),
    action: text('action').$type<SummaryAction>().notNull(),
    actor: text('actor').notNull(),
    before: text('before'),
    after: text('after'),
    coveredMessageCount: integer('covered_message_count').notNull(),
    coveredUntilAt: timestamp('covered_until_at', { withTimezone: true, precision: 6, mode: 'string' }),
    coveredUntilSeq: bigint('covered_until_seq', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('summary_versions_conversation_idx').on(t.conversationId, t.version)],
);

/** refresh: new messages folded in; edit/clear: by hand; rebuild: recomputed after a correction. */
export type SummaryAction = 'refresh' | 'edit' | 'clear' | 'rebuild';

/**
 * Whether a memory row is in its table's HNSW graph (a partial index). Only the rows of a user who
 * holds more than 2,000 rows in the table are: a smaller user's vector search reads their own rows
 * exactly (db/hybrid-search.ts), so their writes never pay for a graph the size of everyone's data,
 * and the graph holds only the rows that are searched through it. The database keeps it (triggers,
 * migration 0017): a new row joins when its user's rows are in the graph, and the statement that
 * takes a user past 2,000 rows moves all of them in. Never written by the application.
 */
const inGraph = () => boolean('in_graph').notNull().default(false);

/** One completed turn (user + assistant), indexed by meaning and by characters. */
export const episodes = pgTable(
  'episodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedBy(),
    conversationId: inConversation(),
    userMessageId: uuid('user_message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    assistantMessageId: uuid('assistant_message_id')
      .notNull()
      .unique()
      .references(() => messages.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    embedding: vector('embedding', { dimensions: EMBEDDING_SIZE }).notNull(),
    // The content's lexical index (db/search-vector.ts), written with the content.
    searchVector: tsvector('search_vector').notNull().default(sql`''::tsvector`),
    // In the HNSW graph: set by the database (migration 0017), see inGraph.
    inGraph: inGraph(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('episodes_user_conversation_idx').on(t.userId, t.conversationId),
    index('episodes_embedding_idx').using('hnsw', t.embedding.op('vector_cosine_ops')).where(sql`${t.inGraph}`),
    index('episodes_user_in_graph_idx').on(t.userId).where(sql`${t.inGraph}`),
    // Keyed by user and lexeme (btree_gin), so a lookup reads only that user's postings. Without the
    // pending list, a search never rescans other users' recent inserts.
    index('episodes_user_search_vector_idx').using('gin', t.userId, t.searchVector).with({ fastupdate: false }),
  ],
);

export const factStatus = pgEnum('fact_status', ['active', 'superseded', 'deleted']);

/** What the user told about themselves, across conversations (user scope). */
export const facts = pgTable(
  'facts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedBy(),
    // The conversation it was learned in: deleting that conversation deletes the fact.
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    slot: text('slot').notNull(),
    content: text('content').notNull(),
    value: text('value').notNull(),
    status: factStatus('status').notNull().default('active'),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    validTo: timestamp('valid_to', { withTimezone: true }),
    supersededBy: uuid('superseded_by'),
    // Null once the fact is no longer active, so no vector search can return it.
    embedding: vector('embedding', { dimensions: EMBEDDING_SIZE }),
    // The content's lexical index (db/search-vector.ts), written with the content.
    searchVector: tsvector('search_vector').notNull().default(sql`''::tsvector`),
    inGraph: inGraph(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('facts_user_status_idx').on(t.userId, t.status),
    index('facts_embedding_idx').using('hnsw', t.embedding.op('vector_cosine_ops')).where(sql`${t.inGraph}`),
    index('facts_user_in_graph_idx').on(t.userId).where(sql`${t.inGraph}`),
    // As for episodes: per user and lexeme.
    index('facts_user_search_vector_idx').using('gin', t.userId, t.searchVector).with({ fastupdate: false }),
    // Whether a recalled fact replaced an older one is read with every search: by the replacement's id.
    index('facts_superseded_by_idx').on(t.supersededBy).where(sql`${t.supersededBy} is not null`),
  ],
);

export const factEvents = pgTable(
  'fact_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    factId: uuid('fact_id')
      .notNull()
      .references(() => facts.id, { onDelete: 'cascade' }),
    userId: ownedBy(),
    event: text('event').$type<'ADD' | 'UPDATE' | 'DELETE' | 'NONE' | 'EDIT' | 'MOVE'>().notNull(),
    oldContent: text('old_content'),
    newContent: text('new_content'),
    actor: text('actor').notNull(),
    sourceMessageId: uuid('source_message_id'),
    createdAt: createdAt(),
  },
  (t) => [index('fact_events_fact_idx').on(t.factId, t.createdAt)],
);

/** Retrieval rewrites, keyed by hash(history ids, last user message id, model id). */
export const retrievalCache = pgTable('retrieval_cache', {
  key: text('key').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  query: text('query').notNull(),
  reason: text('reason').notNull(),
  createdAt: createdAt(),
});

/**
 * Everything the inspector shows for one attempt at an assistant message: an immutable snapshot of
 * what was sent. No foreign key to the message: the record outlives an edited-away or removed
 * message (only deleting the conversation removes it); corrections redact text inside it.
 */
export const turnRecords = pgTable(
  'turn_records',
  {
    assistantMessageId: uuid('assistant_message_id').notNull(),
    // 1 for the first attempt; a Retry overwrites the reply in place and records attempt n + 1.
    attempt: integer('attempt').notNull().default(1),
    userId: ownedBy(),
    conversationId: inConversation(),
    requestId: uuid('request_id').notNull(),
    record: jsonb('record').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.assistantMessageId, t.attempt] }), index('turn_records_user_idx').on(t.userId)],
);

/** Citations bound to the assistant message: every item given, which were cited, the retrieval runs. */
export const citations = pgTable(
  'citations',
  {
    // Like turn records, citations outlive the message (no foreign key); the conversation's deletion removes them.
    assistantMessageId: uuid('assistant_message_id').notNull(),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').notNull(),
    userId: ownedBy(),
    items: jsonb('items').$type<unknown[]>().notNull(),
    citedKeys: text('cited_keys').array().notNull().default(sql`'{}'::text[]`),
    // Items the reply repeats word for word without citing them: a copy a correction must find too.
    repeatedKeys: text('repeated_keys').array().notNull().default(sql`'{}'::text[]`),
    retrievalRuns: jsonb('retrieval_runs').$type<unknown[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.assistantMessageId, t.requestId] })],
);

/** `dead`: out of attempts (JOB_MAX_ATTEMPTS), a crash mid-run counting as one; claimed again only when staff retry it. */
export const jobStatus = pgEnum('job_status', ['pending', 'running', 'done', 'failed', 'dead']);

/**
 * What a job does: a reply's post-turn work (index its turn, learn facts from it, refresh the
 * summary), or re-deriving after a correction (an episode is indexed again through `index_episode`;
 * `rebuild_summary` rebuilds a conversation's summary from its messages, keyed by one of them).
 */
export const jobKinds = ['index_episode', 'extract_facts', 'refresh_summary', 'rebuild_summary'] as const;
export type JobKind = (typeof jobKinds)[number];

/** Memory work, one row per (kind, message): idempotent, retried, visible when it fails. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<JobKind>().notNull(),
    messageId: ofMessage(),
    userId: ownedBy(),
    conversationId: inConversation(),
    status: jobStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    // Enqueue order, which is the order to run one conversation's jobs in (created_at ties within a transaction).
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('jobs_kind_message_idx').on(t.kind, t.messageId),
    // A reply's jobs, claimed by message id (imports, the turn that just ended): without it that
    // claim scans every user's finished jobs.
    index('jobs_message_idx').on(t.messageId),
    index('jobs_status_run_after_idx').on(t.status, t.runAfter),
  ],
);

/** One message of an import as it will be stored: its id and time chosen when the import was accepted. */
export type ImportedMessage = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  replyTo: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
};

/** `dead`: claimed JOB_MAX_ATTEMPTS times without finishing (each a crash or a stall); resumed only when staff retry it. */
export const importStatus = pgEnum('import_status', ['pending', 'running', 'done', 'failed', 'dead']);

/**
 * A conversation imported through POST /api/import: accepted at once with its validated messages
 * (`payload`, dropped once done), then stored and remembered by the worker a chunk at a time, with
 * its progress. At most one pending or running import per user. A running import's lease is its
 * `updated_at`, renewed while it runs: a worker that died leaves it to be resumed from its counts.
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedBy(),
    // Created when its first chunk is stored; deleted with everything in it when the import fails.
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    title: text('title'),
    status: importStatus('status').notNull().default('pending'),
    payload: jsonb('payload').$type<ImportedMessage[]>(),
    messagesTotal: integer('messages_total').notNull(),
    messagesStored: integer('messages_stored').notNull().default(0),
    repliesTotal: integer('replies_total').notNull(),
    repliesDone: integer('replies_done').notNull().default(0),
    jobsDone: integer('jobs_done').notNull().default(0),
    jobsFailed: integer('jobs_failed').notNull().default(0),
    // Raised at each claim, so a run cut off by a crash counts too.
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('imports_one_active_per_user_idx').on(t.userId).where(sql`${t.status} in ('pending', 'running')`),
    index('imports_user_created_idx').on(t.userId, t.createdAt),
    index('imports_conversation_idx').on(t.conversationId),
  ],
);

/**
 * Provenance: which messages each derived memory (a fact, an episode, a summary version) came from,
 * with foreign keys both ways, so a correction of a message finds everything derived from it. A
 * fact's row also holds the span of the message that stated it.
 */
export const memorySources = pgTable(
  'memory_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedBy(),
    messageId: ofMessage(),
    factId: uuid('fact_id').references(() => facts.id, { onDelete: 'cascade' }),
    episodeId: uuid('episode_id').references(() => episodes.id, { onDelete: 'cascade' }),
    summaryVersionId: uuid('summary_version_id').references(() => summaryVersions.id, { onDelete: 'cascade' }),
    spanStart: integer('span_start'),
    spanEnd: integer('span_end'),
    createdAt: createdAt(),
  },
  (t) => [
    index('memory_sources_message_idx').on(t.messageId),
    index('memory_sources_fact_idx').on(t.factId),
    index('memory_sources_episode_idx').on(t.episodeId),
    index('memory_sources_summary_version_idx').on(t.summaryVersionId),
    check('memory_sources_one_memory', sql`num_nonnulls(${t.factId}, ${t.episodeId}, ${t.summaryVersionId}) = 1`),
  ],
);

export const redactionKind = pgEnum('redaction_kind', ['forgotten', 'corrected']);

/**
 * A part of a stored message that memory must no longer carry. The chat keeps the message as
 * written (and marks the part); memory (episodes, summaries, fact extraction) and the model's
 * recent window read it with the part replaced: `forgotten` by a marker everywhere, `corrected`
 * (a fact the user edited) by the correction in memory blocks, while the window keeps the original
 * and the prompt marks the fact as the user's correction of it.
 */
export const messageRedactions = pgTable(
  'message_redactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: ofMessage(),
    userId: ownedBy(),
    kind: redactionKind('kind').notNull(),
    spanStart: integer('span_start').notNull(),
    spanEnd: integer('span_end').notNull(),
    // The fact whose deletion or edit caused it (no foreign key: a deleted fact is gone).
    factId: uuid('fact_id'),
    replacement: text('replacement'),
    // The withdrawn text as replies are searched for it (see `redactionNeedle`): the span's text when
    // it was redacted, trimmed and lower-cased as JavaScript does, '' when too short to search for.
    // Null on rows from before the column: those are read whatever a reply holds.
    needle: text('needle'),
    actor: text('actor').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('message_redactions_message_idx').on(t.messageId), index('message_redactions_user_fact_idx').on(t.userId, t.factId)],
);

/** What an undoable change did: a correction, or a fact a turn learned or replaced. */
export const undoKinds = [
  'fact_edit',
  'fact_delete',
  'episode_forget',
  'summary_clear',
  'message_remove',
  'forget_everything',
  'fact_learned',
  'fact_replaced',
] as const;
export type UndoKind = (typeof undoKinds)[number];

/**
 * A change to memory that can be undone until `expires_at`: what it removed or changed, as data to
 * put back (`snapshot`, erased once the change can no longer be undone), and what it touched, so an
 * older change waits while a later one that touched the same memory stands.
 */
export const undoableChanges = pgTable(
  'undoable_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownedBy(),
    kind: text('kind').$type<UndoKind>().notNull(),
    actor: text('actor').notNull(),
    // The user message of the turn that made the change (learned, replaced or forgotten in the chat).
    sourceMessageId: uuid('source_message_id'),
    // The fact learned or the fact that replaced another, and the one it replaced: named in the notice.
    factId: uuid('fact_id'),
    previousFactId: uuid('previous_fact_id'),
    // `fact:<id>`, `message:<id>`, `conversation:<id>`, or `all` (forget everything).
    touches: text('touches').array().notNull(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [
    index('undoable_changes_user_created_idx').on(t.userId, t.createdAt),
    index('undoable_changes_source_idx').on(t.sourceMessageId),
    index('undoable_changes_expires_idx').on(t.expiresAt).where(sql`${t.snapshot} is not null`),
  ],
);

/**
 * Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE): staff reads of another user's data
 * and every edit, deletion, clear or forget of memory, by anyone. No foreign keys: an entry outlives
 * what it is about. It holds no words of a member: their text is in `audit_payloads`, which erasure
 * empties, with its hash (`payload_hash`) here. `hash` chains each entry to the one before
 * (`audit_entry_hash`, set by a trigger under a lock, in id order), so an altered or removed entry
 * breaks the chain (db/audit-chain.ts verifies it).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    actorUserId: uuid('actor_user_id'),
    actorRole: text('actor_role').notNull(),
    targetUserId: uuid('target_user_id'),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    action: text('action').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    requestId: text('request_id'),
    payloadHash: text('payload_hash'),
    // Set by the insert trigger; whatever the writer sends is replaced.
    hash: text('hash').notNull().default(''),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_target_idx').on(t.targetUserId, t.at),
    index('audit_log_actor_idx').on(t.actorUserId, t.at),
  ],
);

/**
 * What a member said that an audit entry is about (a fact's or a summary's text before and after),
 * kept apart from the entry so that "forget everything" and account deletion can remove it while
 * the entry stays. `user_id` is whose words these are (the entry's target).
 */
export const auditPayloads = pgTable(
  'audit_payloads',
  {
    // No foreign key to the entry: one would make TRUNCATE of the log fail on it before its trigger refuses it.
    entryId: bigint('entry_id', { mode: 'number' }).primaryKey(),
    userId: ownedBy(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_payloads_user_idx').on(t.userId)],
);

/**
 * Per-user request counters (rate-limiter-flexible's RateLimiterDrizzle shape): one row per
 * limiter and user, `points` used in the window that ends at `expire`. Shared by every app instance.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});

export type AuditEntry = typeof auditLog.$inferSelect;
export type Fact = typeof facts.$inferSelect;
export type MessageRedaction = typeof messageRedactions.$inferSelect;
export type Episode = typeof episodes.$inferSelect;
export type Summary = typeof summaries.$inferSelect;
export type Job = typeof jobs.$inferSelect;
export type Import = typeof imports.$inferSelect;
export type UndoableChange = typeof undoableChanges.$inferSelect;
