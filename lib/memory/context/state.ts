import type { ModelMessage } from 'ai';
import type { Scope } from '@/db/history';
import type { Message } from '@/db/schema';
import type { AppConfig } from '@/lib/config';
import type { Models } from '@/lib/llm';
import type { BlockName, ItemDecision } from './budget';
import type { HistoryItem, MemoryItem } from './context-item';
import type { ModelLimits } from './tokens';

type StepTiming = { step: string; ms: number };

type RetrievalRun = {
  kind: 'facts' | 'episodes' | 'summary';
  query: string;
  topK: number;
  skipped?: string;
  candidates: Array<{ id: string; score: number; vectorRank: number | null; lexicalRank: number | null }>;
};

type Retrieval = {
  query: string;
  reason: string;
  rewritten: boolean;
  cached: boolean;
  datesResolved: string[];
};

/** Every item's fate in the budget, with the lines that are always sent. */
export type BudgetReport = {
  budget: number;
  limits: ModelLimits;
  total: number;
  byBlock: Record<BlockName | 'required', number>;
  decisions: Array<ItemDecision | { key: string; block: 'required'; tokens: number; kept: true; reason: string }>;
};

/** A kept memory item and the number it is listed under in the system prompt. */
export type NumberedItem = MemoryItem & { n: number; tokens: number };

/**
 * One turn's state. Each step of the chain reads what it needs from here and returns what it adds;
 * nothing is threaded through parameters.
 */
export type TurnState = {
  scope: Scope;
  requestId: string;
  config: AppConfig;
  models: Models;
  now: Date;
  /** The user message being answered. */
  question: Pick<Message, 'id' | 'content' | 'createdAt'>;
  /** The placeholder row the reply streams into; its id is the id the client sees. */
  assistantMessageId: string;
  /** 1, or n + 1 when a Retry rewrites the reply in place (earlier attempts' records are kept). */
  attempt: number;
  /** Recent-window messages the current summary stands for: sent as the summary, not raw, while it is kept. */
  summaryCovers: string[];
  /** The recent window, oldest first, without the question. */
  history: Message[];
  retrieval: Retrieval;
  queryEmbedding: number[];
  /** Everything recalled, before the budget. */
  candidates: MemoryItem[];
  /** How many earlier exchanges the budget asks recall for (recallTopK), worked out once by recall_episodes. */
  episodesTopK: number;
  runs: RetrievalRun[];
  summaryVersion: number | null;
  budget: BudgetReport | null;
  /** Memory items kept, in the order listed in the system prompt. */
  numbered: NumberedItem[];
  /** History messages kept, oldest first. */
  keptHistory: HistoryItem[];
  /** Built afresh each turn, never stored as a message. */
  system: string;
  /** Exactly what is sent to the model after the system prompt. */
  messages: ModelMessage[];
  /** What went wrong but did not stop the turn (an embedder or rewrite model that failed). */
  warnings: string[];
  trace: StepTiming[];
};

/** The chain's steps, by the names the trace, the inspector and the docs use. */
export type StepName =
  | 'load_history'
  | 'rewrite_for_retrieval'
  | 'embed_query'
  | 'recall_facts'
  | 'recall_episodes'
  | 'recall_summary'
  | 'add_neighbours'
  | 'fit_to_budget'
  | 'assemble_messages';

type Field = keyof TurnState;
/** The fields a step writes; any other field it returns is a type error. */
type StepOutput<Writes extends Field> = Partial<Pick<TurnState, Writes>> & { [Other in Exclude<Field, Writes>]?: never };
/** The list fields of the turn's state: those a step may add to (`appends`) rather than write whole. */
type ListField = { [F in Field]: TurnState[F] extends unknown[] ? F : never }[Field];

/**
 * One step of the chain: the fields of the turn's state it reads, those it writes, and the lists it
 * adds to (`appends`: it returns only its own entries, which the chain puts after those already
 * there). `run` sees only what it reads and may return only what it writes or appends (the chain
 * holds it to that when it runs). Steps that only add to the same lists can run at once.
 */
export type Step<Reads extends Field = Field, Writes extends Field = Field, Appends extends ListField = ListField> = {
  name: StepName;
  reads: readonly Reads[];
  writes: readonly Writes[];
  appends?: readonly Appends[];
  run: (state: Pick<TurnState, Reads>) => StepOutput<Writes | Appends> | Promise<StepOutput<Writes | Appends>>;
};

/** A step, its `run` typed by what it declares. */
export function step<const Reads extends Field, const Writes extends Field, const Appends extends ListField = never>(
  definition: Step<Reads, Writes, Appends>,
): Step<Reads, Writes, Appends> {
  return definition;
}

export type TurnInput = Pick<TurnState, 'scope' | 'requestId' | 'config' | 'models' | 'question' | 'assistantMessageId' | 'attempt'> & {
  now?: Date;
};
