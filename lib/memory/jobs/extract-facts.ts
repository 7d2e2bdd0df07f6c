import pLimit from 'p-limit';
import {
  addFact,
  confirmFact,
  endFact,
  type FactWrite,
  findRelatedActiveFacts,
  listFacts,
  type OnFactWritten,
  supersedeFact,
} from '@/db/facts';
import type { Fact, Job, Message } from '@/db/schema';
import { asActor } from '@/lib/audit';
import type { Models } from '@/lib/llm';
import { indexTerms } from '@/lib/text/index-terms';
import { ASKED_IN_CHAT, endFacts } from '../edits/forget-facts';
import { captureUndoable } from '../edits/undo-capture';
import { embedTexts } from '../embed';
import { searchKeywords } from '../keywords';
import { locateStatement } from '../redaction';
import { rules } from '../rules/bounded';
import { splitKey } from '../rules/fact-types';
import type { ExistingFact, FactCandidate, FactDecision, FactSlot, ForgetRequest } from '../rules/facts';
import { loadTurn, loadTurns, type Turn } from './turn-messages';
import type { JobWork } from './work';

/**
 * The mem0 idea: pull candidate facts out of the user's message, compare each with the similar
 * active facts, and ADD, UPDATE (supersede), DELETE (end) or do nothing. An explicit request to
 * forget deletes the matching facts outright: a chat turn has done so before its reply
 * (forget-in-chat.ts), so here it catches an imported request, and a fact the turn could not see
 * yet because the job learning it had not run. Extracting and deciding are the memory model's
 * (models.memoryModel): an LLM with a JSON schema, or offline rules by slot.
 */
export const extractFacts: JobWork = {
  kind: 'extract_facts',
  ownInputs: true,
  async run({ job, models }) {
    const turn = await loadTurn(job.userId, job.messageId, 'extraction');
    const [failure] = (await learnFromTurns([{ job, turn }], models)).values();
    if (failure !== undefined) throw failure;
  },
  // Forgetting redacts messages that the other kinds of work read.
  isolates: async (questions) => (await Promise.all(questions.map(rules.detectForgetRequest))).some((request) => request !== null),
  async runMany(jobs, { models }) {
    const [{ userId, conversationId }] = jobs;
    const turns = await loadTurns(
      { userId, conversationId },
      jobs.map((j) => j.messageId),
      'extraction',
    );
    return learnFromTurns(
      jobs.map((job) => ({ job, turn: turns.get(job.messageId) })),
      models,
    );
  },
};

/** Turns whose candidates are looked for at once (each a memory model call per user message). */
const EXTRACTIONS_AT_ONCE = 4;

/** `question` as fact extraction reads it (forgotten and corrected parts gone); `written` as the user wrote it, where spans point. */
type Statement = { question: Message; written: string };
type Learning = { job: Job; steps: Array<Statement & ({ forget: ForgetRequest } | { candidates: FactCandidate[] })> };

/**
 * The turns' statements in order: their candidates found first and embedded in one call, then each
 * reconciled with the facts as the statements before it left them. Returns each failed job's error.
 */
async function learnFromTurns(entries: Array<{ job: Job; turn: Turn | undefined }>, models: Models): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const learnings: Learning[] = [];
  // Finding a turn's candidates reads nothing another turn writes: a few model calls at once.
  const finding = pLimit(EXTRACTIONS_AT_ONCE);
  const found = await Promise.all(
    entries.map(({ job, turn }) =>
      finding(() => statementsOf(turn, models)).then(
        (steps) => ({ job, steps }),
        (error: unknown) => ({ job, error }),
      ),
    ),
  );
  for (const entry of found) {
    if ('error' in entry) failures.set(entry.job.id, entry.error);
    else learnings.push(entry);
  }
  const texts = learnings.flatMap((l) => l.steps.flatMap((step) => ('candidates' in step ? step.candidates.map((c) => c.text) : [])));
  const embeddings = (await embedTexts(models, texts)).values();
  for (const { job, steps } of learnings) {
    // Taken before any write, so that a failed job leaves the next jobs their own embeddings.
    const embedded = steps.map((step) => ('candidates' in step ? step.candidates.map(() => embeddings.next().value!) : []));
    try {
      for (const [i, step] of steps.entries()) {
        if ('forget' in step) await forget(step, job.userId, models);
        else await reconcile(step, step.candidates, embedded[i], job, models);
      }
    } catch (error) {
      failures.set(job.id, error);
    }
  }
  return failures;
}

/** A turn's user messages: each a request to forget or the candidate facts it states (a model call per message when there is one). */
async function statementsOf(turn: Turn | undefined, models: Models): Promise<Learning['steps']> {
  const steps: Learning['steps'] = [];
  for (const [i, question] of (turn?.questions ?? []).entries()) {
    const statement = { question, written: turn!.original[i].content };
    // As written: the part of a request that names what to forget is itself marked forgotten.
    const forget = await rules.detectForgetRequest(statement.written);
    if (forget) steps.push({ ...statement, forget });
    else
      steps.push({
        ...statement,
        candidates: await models.memoryModel.extract(question.content, question.createdAt),
      });
  }
  return steps;
}

async function forget({ question, forget }: Statement & { forget: ForgetRequest }, userId: string, models: Models): Promise<void> {
  const active = await listFacts(userId, 'active');
  const ids = new Set(await rules.factsToForget(forget, active.map(existing)));
  await endFacts(
    userId,
    active.filter((f) => ids.has(f.id)),
    asActor(models.memoryModel.factActor),
    ASKED_IN_CHAT,
    // Linked to the message that asked, so its reply's notice lists what was forgotten, with its undo.
    { messageId: question.id, redactions: [] },
  );
}

async function reconcile(
  { question, written }: Statement,
  candidates: FactCandidate[],
  embeddings: number[][],
  job: Job,
  models: Models,
): Promise<void> {
  for (const [i, candidate] of candidates.entries()) {
    const write: FactWrite = {
      userId: job.userId,
      conversationId: job.conversationId,
      actor: models.memoryModel.factActor,
      source: { messageId: question.id, ...locateStatement(written, candidate.text) },
    };
    // A past statement is weighed against the current facts of what it was ("work:siemens" against work).
    const slots = candidate.slot === 'past' ? ['past', splitKey(candidate.value)[0]] : [candidate.slot];
    const related = await findRelatedActiveFacts(job.userId, slots, embeddings[i], searchKeywords(candidate.text));
    const decisions = await models.memoryModel.reconcile(candidate, related.map(existing));
    for (const decision of decisions) await apply(write, decision, embeddings[i], question.createdAt);
  }
}

async function apply(write: FactWrite, decision: FactDecision, embedding: number[], saidAt: Date): Promise<void> {
  const { candidate } = decision;
  const fact = {
    slot: candidate.slot,
    content: candidate.text,
    value: candidate.value,
    indexTerms: indexTerms(candidate.text),
    embedding,
    validFrom: candidate.validFrom ? new Date(`${candidate.validFrom}T00:00:00Z`) : saidAt,
  };
  const recorded = recordLearning(write);
  if (decision.event === 'ADD') await addFact(write, fact, recorded);
  else if (decision.event === 'UPDATE')
    (await supersedeFact(write, decision.factId, fact, recorded)) ?? (await addFact(write, fact, recorded));
  else if (decision.event === 'DELETE') await endFact(write, decision.factId, candidate.text);
  else await confirmFact(write, decision.factId);
}

/** A fact learned, or one that replaced another, is undoable like a correction, and named under the reply. */
function recordLearning(write: FactWrite): OnFactWritten {
  return async (tx, { fact, replaced }) => {
    await captureUndoable(tx, {
      userId: write.userId,
      kind: replaced ? 'fact_replaced' : 'fact_learned',
      actor: write.actor,
      sourceMessageId: write.source?.messageId ?? null,
      factId: fact.id,
      previousFactId: replaced?.id ?? null,
      touches: [fact, ...(replaced ? [replaced] : [])].map((f) => `fact:${f.id}`),
      snapshot: { addedFacts: [fact.id], ...(replaced ? { rows: { facts: [replaced] } } : {}) },
    });
  };
}

function existing(fact: Fact): ExistingFact {
  return { id: fact.id, slot: fact.slot as FactSlot, text: fact.content, value: fact.value };
}
