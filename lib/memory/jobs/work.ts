import type { Job, JobKind } from '@/db/schema';
import type { AppConfig } from '@/lib/config';
import type { Models } from '@/lib/llm';

type JobContext = { job: Job; config: AppConfig; models: Models };
export type RunContext = Omit<JobContext, 'job'>;

/** One kind of queued memory work: what a job of this kind does, and how it shares work with its neighbours. */
export type JobWork = {
  kind: JobKind;
  run: (context: JobContext) => Promise<void>;
  /**
   * Many replies' jobs of this kind in one conversation (an import's), in reply order, with the
   * results of running each in turn, and what they share (reading the turns, the embedding call)
   * done once. Returns the failed jobs' errors by job id; the others are done.
   */
  runMany?: (jobs: Job[], context: RunContext) => Promise<Map<string, unknown>>;
  /** True when this work, for a reply answering these user messages, changes what the other kinds read. */
  isolates?: (questions: string[]) => Promise<boolean>;
  /**
   * True when it reads nothing another kind writes (only the conversation's messages, their
   * redactions and its own kind of memory): in an import it runs beside the other such kinds.
   */
  ownInputs?: boolean;
};
