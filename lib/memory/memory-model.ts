import type { LanguageModelV4 } from '@ai-sdk/provider';
import { generateText, Output } from 'ai';
import type { z } from 'zod';
import { extractPrompt, reconcilePrompt, rewritePrompt, summarisePrompt } from './memory-prompts';
import { rules } from './rules/bounded';
import type { ExistingFact, FactCandidate, FactDecision } from './rules/facts';
import type { RecentTurn } from './rules/rewrite';
import type { SummaryInput } from './rules/summarise';

/**
 * The memory work that reads what people write: the retrieval rewrite, fact extraction and
 * reconciliation, the rolling summary. Done by the configured memory model, or offline by the rules
 * (in their threads, lib/memory/rules/bounded.ts); getModels chooses which, once.
 */
export type MemoryModel = {
  /** What does the work, in the rewrite cache's key and a model's rewrite reason: `<provider>:<model>` or `offline-rules`. */
  id: string;
  /** The actor recorded on the facts it learns, changes or ends: `model:<model>` or `offline-rules`. */
  factActor: string;
  /** The actor recorded on the summary versions it writes: `model:<model>` or `offline-summariser`. */
  summaryActor: string;
  /**
   * Its summaries are sentences of the messages (so a summary's sources are the messages it still
   * quotes), not a paraphrase (which stands for every message it covered).
   */
  extractiveSummaries: boolean;
  /** The question as one standalone retrieval query, reading the recent window (oldest first). */
  rewrite(question: string, history: RecentTurn[], now: Date): Promise<QueryRewrite>;
  /** The facts a user message states about the user. */
  extract(text: string, saidAt: Date): Promise<FactCandidate[]>;
  /** What a candidate does to the related active facts: ADD, UPDATE, DELETE or NONE (none at all: nothing decided). */
  reconcile(candidate: FactCandidate, related: ExistingFact[]): Promise<FactDecision[]>;
  /** The previous summary updated with the newly covered messages. */
  summarise(previous: string | null, messages: SummaryInput[]): Promise<string>;
};

/**
 * A rewrite and who wrote it: the model; the rules (which may give up on a text, answering with the
 * question as it is); or, as a `fallback`, the rules standing in for a model that failed or timed out.
 */
type QueryRewrite = { query: string; datesResolved: string[] } & (
  | { by: 'model' }
  | { by: 'rules'; gaveUp: boolean }
  | { by: 'fallback'; modelError: unknown }
);

/** The offline rules, for a server with no memory model. */
export const rulesMemoryModel: MemoryModel = {
  id: 'offline-rules',
  factActor: 'offline-rules',
  summaryActor: 'offline-summariser',
  extractiveSummaries: true,
  async rewrite(question, history, now) {
    const { value, gaveUp } = await rules.rewriteOffline(question, history, now);
    return { query: value.query, datesResolved: value.datesResolved, by: 'rules', gaveUp };
  },
  extract: (text, saidAt) => rules.extractFactCandidates(text, saidAt),
  reconcile: (candidate, related) => rules.decideFactUpdate(candidate, related),
  summarise: async (previous, messages) => (await rules.summariseExtractive(previous, messages)).value,
};

/** The model's answer to a prompt that answers in JSON, read by the prompt's schema; one retry. */
async function answerIn<Schema extends z.ZodType>(
  model: LanguageModelV4,
  asked: { instructions: string; schema: Schema },
  prompt: string,
): Promise<z.infer<Schema>> {
  const { output } = await generateText({
    model,
    output: Output.object({ schema: asked.schema }),
    instructions: asked.instructions,
    prompt,
    maxRetries: 1,
  });
  return output as z.infer<Schema>;
}

/** A configured language model, asked as memory-prompts.ts says; one retry per call. */
export function languageMemoryModel(model: LanguageModelV4): MemoryModel {
  const actor = `model:${model.modelId}`;
  return {
    id: `${model.provider}:${model.modelId}`,
    factActor: actor,
    summaryActor: actor,
    extractiveSummaries: false,
    async rewrite(question, history, now) {
      try {
        const { text } = await generateText({
          model,
          instructions: rewritePrompt.instructions,
          prompt: rewritePrompt.prompt(question, history, now),
          maxRetries: 1,
        });
        // The model is asked for dates as YYYY-MM-DD; the rules make sure of the ones it left relative.
        const { text: query, resolved } = await rules.absolutizeRelativeDates(text.trim() || question, now);
        return { query, datesResolved: resolved.map((r) => `${r.phrase} → ${r.date}`), by: 'model' };
      } catch (modelError) {
        // The memory model is down or too slow: the offline rules still resolve the reference.
        const { value } = await rules.rewriteOffline(question, history, now);
        return { query: value.query, datesResolved: value.datesResolved, by: 'fallback', modelError };
      }
    },
    async extract(text, saidAt) {
      const output = await answerIn(model, extractPrompt, extractPrompt.prompt(text, saidAt));
      return output.facts.map((f) => ({ ...f, validFrom: f.validFrom ?? undefined }));
    },
    async reconcile(candidate, related) {
      if (related.length === 0) return [{ event: 'ADD', candidate }];
      const output = await answerIn(model, reconcilePrompt, reconcilePrompt.prompt(candidate, related));
      // A decision about a fact it was not shown is dropped.
      const known = new Set(related.map((f) => f.id));
      return output.decisions.flatMap((d): FactDecision[] => {
        if (d.event === 'ADD') return [{ event: 'ADD', candidate }];
        if (!d.factId || !known.has(d.factId)) return [];
        return [{ event: d.event, factId: d.factId, candidate }];
      });
    },
    async summarise(previous, messages) {
      const { text } = await generateText({
        model,
        instructions: summarisePrompt.instructions,
        prompt: summarisePrompt.prompt(previous, messages),
        maxRetries: 1,
      });
      return text.trim();
    },
  };
}
