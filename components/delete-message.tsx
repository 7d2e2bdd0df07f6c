'use client';

import { type UseQueryResult, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { MessageRemoval, MessageRemovalPlan } from './api-types';
import { ConfirmDialog } from './confirm-dialog';
import { useAfterMemoryChange } from './memory-changed';
import { plural } from './ui/format';

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
  onDeleted: (removal: MessageRemoval) => void;
}) {
  const afterMemoryChange = useAfterMemoryChange();
  const messageId = message?.id ?? null;
  const plan = useQuery({
    queryKey: ['message-removal', messageId],
    queryFn: () => api.messageRemovalPlan(messageId!),
    enabled: messageId !== null,
    staleTime: 0,
    gcTime: 0,
    retry: 1,
  });
  const remove = useMutation({
    // Through the shared request layer: its answer's `undo` is offered in the toast, as every correction's is.
    mutationFn: (id: string) => api.deleteMessage(id),
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
function describeRemoval(plan: Omit<MessageRemovalPlan, 'message' | 'undoMinutes'>): string[] {
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

function RemovalPlanText({ query }: { query: UseQueryResult<MessageRemovalPlan> }) {
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
        only from it. You can undo the deletion for a while afterwards, under Recent changes on the Memory page.
      </p>
    );
  }
  const { message, undoMinutes, ...counts } = query.data;
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
      <p>Inspector records that quoted it keep their place with its words redacted.</p>
      <p data-testid="delete-plan-undo">
        You can undo this for {plural(undoMinutes, 'minute')}: the {what} comes back in its place, with what memlens learned from it
        (inspector records stay redacted). Undo is offered once it is deleted, and under Recent changes on the Memory page.
      </p>
    </div>
  );
}
