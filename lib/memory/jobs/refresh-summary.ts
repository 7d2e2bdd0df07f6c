import type { Scope } from '@/db/history';
import type { Message, Summary } from '@/db/schema';
import { coveredUntil, getSummary, summarySources, writeSummary } from '@/db/summaries';
import { memoryFloor } from '@/db/users';
import type { AppConfig } from '@/lib/config';
import type { Models } from '@/lib/llm';
import { readFromDatabase, readOnce, type SummaryReader } from './summary-reader';
import { nextSummaryAt } from './summary-schedule';
import type { JobWork } from './work';

/**
 * The rolling summary, written when `nextSummaryAt` says it is due: it stands for the messages older
 * than the last SUMMARY_KEEP_RAW (by default the recent window, so the two never repeat each other),
 * and each version covers at least SUMMARY_REFRESH_MESSAGES more of them.
 * Incremental: previous summary (as edited, if a person edited it) plus the newly covered messages,
 * read as memory reads them (forgotten parts gone). Nothing at or before a clear point or a
 * "forget everything" is ever covered again.
 */
export const refreshSummary: JobWork = {
  kind: 'refresh_summary',
  ownInputs: true,
  async run({ job, config, models }) {
    await refreshSummaryOf({ userId: job.userId, conversationId: job.conversationId }, job.messageId, config, models);
  },
  // An import's replies in order, reading the conversation once: a refresh that would not write
  // costs no query, one that writes only its own.
  async runMany(jobs, { config, models }) {
    const [{ userId, conversationId }] = jobs;
    const scope = { userId, conversationId };
    const reader = await readOnce(scope);
    let current = await getSummary(scope);
    const floorSeq = Math.max(current?.floorSeq ?? 0, await memoryFloor(userId));
    const failures = new Map<string, unknown>();
    for (const job of jobs) {
      try {
        current = await refreshFrom(scope, current, floorSeq, { upTo: job.messageId, config, models, rebuild: false, reader });
      } catch (error) {
        failures.set(job.id, error);
        current = await getSummary(scope);
      }
    }
    return failures;
  },
};

/** A correction changed what the summary was built from: it is rebuilt from the messages as memory now reads them. */
export const rebuildSummary: JobWork = {
  kind: 'rebuild_summary',
  async run({ job, config, models }) {
    await refreshSummaryOf({ userId: job.userId, conversationId: job.conversationId }, null, config, models, true);
  },
};

/** Messages a rebuild folds in per step, so a long conversation is summarised in pieces. */
const REBUILD_CHUNK = 40;

/**
 * One refresh up to `upTo` (a reply; null = the newest message); returns the summary as it then is.
 * With `rebuild`, the summary is recomputed from the messages alone, in pieces, after a correction
 * changed what it was built from.
 */
async function refreshSummaryOf(
  scope: Scope,
  upTo: string | null,
  config: AppConfig,
  models: Models,
  rebuild = false,
): Promise<Summary | undefined> {
  const current = await getSummary(scope);
  if (rebuild && !current) return current;
  const floorSeq = Math.max(current?.floorSeq ?? 0, await memoryFloor(scope.userId));
  return refreshFrom(scope, current, floorSeq, { upTo, config, models, rebuild, reader: readFromDatabase(scope) });
}

type Refresh = { upTo: string | null; config: AppConfig; models: Models; rebuild: boolean; reader: SummaryReader };

/** A refresh from the summary as it is (`current`) and the clear point. */
async function refreshFrom(
  scope: Scope,
  current: Summary | undefined,
  floorSeq: number,
  { upTo, config, models, rebuild, reader }: Refresh,
): Promise<Summary | undefined> {
  let base = rebuild ? null : current;
  // Each pass covers at least one more message, so the loop ends with the conversation.
  for (;;) {
    const { fresh, sinceFloor } = await reader.forSummary({
      after: coveredUntil(base ?? undefined),
      floorSeq,
      upTo,
      keepRaw: config.SUMMARY_KEEP_RAW,
    });
    if (!rebuild) {
      // What the summary already stands for among the messages it may cover.
      const covered = Math.max(0, sinceFloor - config.SUMMARY_KEEP_RAW) - fresh.length;
      if (fresh.length === 0 || sinceFloor < nextSummaryAt(config, { started: Boolean(base?.content), covered })) return current;
    }
    const piece = rebuild ? fresh.slice(0, REBUILD_CHUNK) : fresh;
    const written = await writeVersion(scope, current?.version ?? null, base, piece, models, rebuild ? 'rebuild' : 'refresh', reader);
    // Someone edited or cleared it meanwhile: fail, so the retry builds on their version.
    if (!written) throw new Error('the summary changed while it was being refreshed');
    current = written;
    base = written;
    if (!rebuild || fresh.length <= REBUILD_CHUNK) return current;
  }
}

async function writeVersion(
  scope: Scope,
  expectedVersion: number | null,
  base: { content: string; version: number; coveredMessageCount: number } | null | undefined,
  stored: Message[],
  models: Models,
  action: 'refresh' | 'rebuild',
  reader: SummaryReader,
) {
  const fresh = await reader.readForMemory(stored);
  const previous = base?.content || null;
  const content = fresh.length === 0 ? '' : await models.memoryModel.summarise(previous, fresh.map(asInput));
  const earlier = base?.content ? await summarySources(scope, base.version) : [];
  const last = fresh.at(-1);
  return writeSummary(
    scope,
    {
      content,
      coveredMessageCount: (base?.content ? base.coveredMessageCount : 0) + fresh.length,
      coveredUntil: last ? ((await reader.position(last.id)) ?? null) : null,
      sourceMessageIds: models.memoryModel.extractiveSummaries
        ? sourcesOf(content, [...(await reader.readForMemory(await reader.byIds(earlier))), ...fresh])
        : [...earlier, ...fresh.map((m) => m.id)],
      actor: models.memoryModel.summaryActor,
      action,
    },
    expectedVersion,
  );
}

function asInput(message: Message) {
  return { role: message.role, content: message.content, id: message.id };
}

/**
 * Provenance of an extractive summary: the messages whose sentences it still holds (lines dropped
 * by the length cap take their sources with them). An LLM summary paraphrases, so it stands for
 * every message it covered.
 */
function sourcesOf(summary: string, messages: Message[]): string[] {
  const lines = summary.split('\n').map((line) =>
    line
      .replace(/^-\s*(User|Assistant)\s*[:：]\s*/u, '')
      .replace(/…$/u, '')
      .trim(),
  );
  return messages.filter((m) => lines.some((line) => line.length > 3 && m.content.includes(line))).map((m) => m.id);
}
