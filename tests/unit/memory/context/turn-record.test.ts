import { describe, expect, it } from 'vitest';
import { type EpisodeItem, type FactItem, type SummaryItem, UNRANKED } from '@/lib/memory/context/context-item';
import type { TurnState } from '@/lib/memory/context/state';
import { buildTurnRecord } from '@/lib/memory/context/turn-record';
import { memoryItemsOf } from '@/lib/memory/edits/audit-redaction';

// The turn record is stored as JSON and read back by the inspector, replay and redaction for as long
// as the database keeps it: records written before the items were typed by kind must read the same,
// so the stored shape of each kind is pinned here.

const fact: FactItem = {
  key: 'fact:f1',
  kind: 'fact',
  block: 'facts',
  text: 'I play the cello (hobby, current since 2026-03-01)',
  sourceMessageIds: ['m1'],
  score: 0.032,
  rank: 1,
  vectorRank: 2,
  lexicalRank: 1,
  meta: { factId: 'f1', slot: 'hobby', conversationId: 'c0', content: 'I play the cello', related: true },
};
const summary: SummaryItem = {
  key: 'summary:c1@v4',
  kind: 'summary',
  block: 'summary',
  text: '- User: Planning a trip to Porto in May.',
  sourceMessageIds: ['m2', 'm3'],
  meta: { version: 4, coveredMessageCount: 12, updatedBy: 'model' },
};
const found: EpisodeItem = {
  key: 'episode:e1',
  kind: 'episode',
  block: 'episodes',
  text: '(2026-03-02) User: Which rosin suits a cello? / Assistant: A dark one.',
  sourceMessageIds: ['m4', 'm5'],
  score: 0.016,
  rank: 1,
  vectorRank: null,
  lexicalRank: 1,
  meta: { conversationId: 'c0', at: '2026-03-02T10:00:00.000Z' },
};
const neighbour: EpisodeItem = {
  ...found,
  ...UNRANKED,
  key: 'episode:e2',
  text: '(2026-03-02) User: And strings? / Assistant: Steel ones last.',
  sourceMessageIds: ['m6', 'm7'],
  meta: { conversationId: 'c0', at: '2026-03-02T10:05:00.000Z', neighbourOf: 'episode:e1', side: 1 },
};

function stateWith(): TurnState {
  const numbered = [
    { ...fact, n: 1, tokens: 14 },
    { ...summary, n: 2, tokens: 12 },
  ];
  const read = {
    requestId: 'r1',
    assistantMessageId: 'a1',
    attempt: 1,
    scope: { userId: 'u1', conversationId: 'c1' },
    question: { id: 'q1', content: 'What should I practise?', createdAt: new Date('2026-03-03T09:00:00Z') },
    retrieval: { query: 'What should I practise?', reason: 'as asked', rewritten: false, cached: false, datesResolved: [] },
    candidates: [fact, summary, found, neighbour],
    numbered,
    keptHistory: [],
    budget: {
      budget: 1000,
      limits: { contextWindow: 8000, reservedOutput: 1000, budget: 1000, encoding: 'o200k_base' },
      total: 26,
      byBlock: { required: 0, facts: 14, summary: 12, episodes: 0, history: 0 },
      decisions: [
        { key: 'fact:f1', block: 'facts', tokens: 14, kept: true, reason: 'fits' },
        { key: 'summary:c1@v4', block: 'summary', tokens: 12, kept: true, reason: 'fits' },
        { key: 'episode:e1', block: 'episodes', tokens: 20, kept: false, reason: 'no room left in the episodes block' },
      ],
    },
    summaryVersion: 4,
    runs: [],
    system: 'system',
    messages: [{ role: 'user', content: 'What should I practise?' }],
    warnings: [],
    trace: [],
  } satisfies Partial<TurnState>;
  // What buildTurnRecord reads: of the models only their id and whether they are offline.
  return { ...read, models: { chatModelId: 'offline', offline: true } } as unknown as TurnState;
}

describe('the recalled items of a turn record', () => {
  it('store each kind with its own fields under meta, ranked (the summary with nulls), without the block', () => {
    const { recalled } = JSON.parse(JSON.stringify(buildTurnRecord(stateWith())));
    expect(recalled).toEqual([
      {
        key: 'fact:f1',
        kind: 'fact',
        text: 'I play the cello (hobby, current since 2026-03-01)',
        sourceMessageIds: ['m1'],
        score: 0.032,
        rank: 1,
        vectorRank: 2,
        lexicalRank: 1,
        meta: { factId: 'f1', slot: 'hobby', conversationId: 'c0', content: 'I play the cello', related: true },
        n: 1,
        kept: true,
        tokens: 14,
        reason: 'fits',
      },
      {
        key: 'summary:c1@v4',
        kind: 'summary',
        text: '- User: Planning a trip to Porto in May.',
        sourceMessageIds: ['m2', 'm3'],
        score: null,
        rank: null,
        vectorRank: null,
        lexicalRank: null,
        meta: { version: 4, coveredMessageCount: 12, updatedBy: 'model' },
        n: 2,
        kept: true,
        tokens: 12,
        reason: 'fits',
      },
      {
        key: 'episode:e1',
        kind: 'episode',
        text: '(2026-03-02) User: Which rosin suits a cello? / Assistant: A dark one.',
        sourceMessageIds: ['m4', 'm5'],
        score: 0.016,
        rank: 1,
        vectorRank: null,
        lexicalRank: 1,
        meta: { conversationId: 'c0', at: '2026-03-02T10:00:00.000Z' },
        n: null,
        kept: false,
        tokens: 20,
        reason: 'no room left in the episodes block',
      },
      {
        key: 'episode:e2',
        kind: 'episode',
        text: '(2026-03-02) User: And strings? / Assistant: Steel ones last.',
        sourceMessageIds: ['m6', 'm7'],
        score: null,
        rank: null,
        vectorRank: null,
        lexicalRank: null,
        meta: { conversationId: 'c0', at: '2026-03-02T10:05:00.000Z', neighbourOf: 'episode:e1', side: 1 },
        n: null,
        kept: false,
        tokens: null,
        reason: null,
      },
    ]);
  });

  it("give forgetting everything each item's text and a fact's own words, in a new record as in an older one", () => {
    const stored = JSON.parse(JSON.stringify(buildTurnRecord(stateWith())));
    const older = { ...stored, recalled: [{ ...stored.recalled[0], meta: { factId: 'f1', slot: 'hobby', content: 'I play the cello' } }] };
    expect(memoryItemsOf(stored)).toEqual({
      texts: [
        'I play the cello (hobby, current since 2026-03-01)',
        'I play the cello',
        '- User: Planning a trip to Porto in May.',
        '(2026-03-02) User: Which rosin suits a cello? / Assistant: A dark one.',
        '(2026-03-02) User: And strings? / Assistant: Steel ones last.',
        '- User: Planning a trip to Porto in May.',
      ],
      keys: ['fact:f1', 'summary:c1@v4', 'episode:e1', 'episode:e2'],
    });
    expect(memoryItemsOf(older).texts.slice(0, 2)).toEqual(['I play the cello (hobby, current since 2026-03-01)', 'I play the cello']);
  });
});
