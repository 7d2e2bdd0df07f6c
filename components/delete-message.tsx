'use client';

import { type UseQueryResult, useMutation, useQuery } from '@tanstack/react-query';
import type { deleteMessage, messageRemovalPlan } from '@/lib/services/messages';
import { ConfirmDialog } from './confirm-dialog';
import { fetchOrThrow } from './http';
import type { JsonResult } from './json';
import { useAfterMemoryChange } from './memory-changed';
import { plural } from './ui/format';

type RemovalPlan = JsonResult<typeof messageRemovalPlan>;
type Removal = JsonResult<typeof deleteMessage> & { deleted: string };

const readJson = async <T,>(path: string, init: RequestInit = {}) => (await (await fetchOrThrow(path, init)).json()) as T;

/**
 * "Delete message": its dialog says what deleting it does to memory, counted by the server as the
 * deletion will do it (read each time the dialog opens); `onDeleted` runs once the message is gone.
 */
export function DeleteMessageDialog({
  message,
  onCancel,
  onDeleted,
}: {
  /** The message to delete; null when the dialog is closed. */
  message: { id: string; role: string } | null;
  onCancel: () => void;
  onDeleted: (removal: Removal) => void;
}) {
  const afterMemoryChange = useAfterMemoryChange();
  const messageId = message?.id ?? null;
  const plan = useQuery({
    queryKey: ['message-removal', messageId],
    queryFn: () => readJson<RemovalPlan>(`/api/messages/${messageId}/removal`, { cache: 'no-store' }),
    enabled: messageId !== null,
    staleTime: 0,
    gcTime: 0,
    retry: 1,
  });
  const remove = useMutation({
    mutationFn: (id: string) => readJson<Removal>(`/api/messages/${id}`, { method: 'DELETE' }),
    onSuccess: (removal) => {
      onDeleted(removal);
      afterMemoryChange();
    },
  });
  const reply = message?.role === 'assistant';
  return (
    <ConfirmDialog
      open={message !== null}
      title={reply ? 'Delete this reply?' : 'Delete this message?'}
      description={<RemovalPlanText query={plan} />}
      confirmLabel="Delete"
      busy={remove.isPending}
      confirmDisabled={plan.isPending && !plan.isError}
      error={remove.error ? remove.error.message : null}
      onConfirm={() => messageId && remove.mutate(messageId)}
      onCancel={() => {
        remove.reset();
        onCancel();
      }}
      testId="delete-message-dialog"
    />
  );
}

/** "1 fact learned only from it is forgotten": each effect the deletion has, in the user's words. */
function describeRemoval(plan: Omit<RemovalPlan, 'message'>): string[] {
  return [
    plan.factsEnded > 0
      ? `${plural(plan.factsEnded, 'fact')} learned only from it ${plan.factsEnded === 1 ? 'is' : 'are'} forgotten`
      : null,
    plan.episodesRederived > 0
      ? `${plural(plan.episodesRederived, 'remembered exchange')} ${plan.episodesRederived === 1 ? 'is' : 'are'} made again without it`
      : null,
    plan.summariesRebuilt > 0
      ? `${plural(plan.summariesRebuilt, 'conversation summary', 'conversation summaries')} ${plan.summariesRebuilt === 1 ? 'is' : 'are'} rebuilt`
      : null,
    plan.repliesMarked > 0
      ? `${plural(plan.repliesMarked, 'other reply', 'other replies')} that quoted it ${plan.repliesMarked === 1 ? 'has' : 'have'} those words forgotten`
      : null,
  ].filter((line): line is string => line !== null);
}

function RemovalPlanText({ query }: { query: UseQueryResult<RemovalPlan> }) {
  if (query.isPending && !query.isError) {
    return (
      <p data-testid="delete-plan-loading" role="status">
        Counting what memlens learned from it…
      </p>
    );
  }
  if (query.isError || !query.data) {
    return (
      <p>
        Could not count what memlens learned from it ({query.error?.message ?? 'no answer'}). Deleting it also forgets every fact learned
        only from it. This cannot be undone.
      </p>
    );
  }
  const { message, ...counts } = query.data;
  const effects = describeRemoval(counts);
  const what = message.role === 'assistant' ? 'reply' : 'message';
  return (
    <div data-testid="delete-plan" className="space-y-2">
      <p>
        Removes this {what} from the conversation
        {effects.length === 0 ? '. Nothing memlens remembers comes from it alone.' : ':'}
      </p>
      {effects.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5" data-testid="delete-plan-effects">
          {effects.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <p>Inspector records that quoted it keep their place with its words redacted. This cannot be undone.</p>
    </div>
  );
}
