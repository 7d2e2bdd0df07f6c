'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { api, conversationsKey } from './api';
import { ChatHeader } from './chat-header';
import { LensIcon, PlusIcon } from './icons';
import type { ModelInfo } from './types';

/** Shown at / when the user has no conversation yet. */
export function EmptyState({ model }: { model: ModelInfo }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => api.createConversation(),
    onSuccess: (conversation) => {
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
      router.push(`/c/${conversation.id}`);
    },
  });

  return (
    <>
      <ChatHeader title="Welcome" model={model.chat} offline={model.offline} />
      <div className="grid flex-1 place-items-center overflow-y-auto px-6 py-10">
        <div className="max-w-md text-center">
          <span className="mx-auto grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
            <LensIcon width={24} height={24} />
          </span>
          <h2 className="mt-5 text-2xl font-semibold tracking-tight">A chat whose memory you can see</h2>
          <p className="mt-3 text-[15px] leading-7 text-muted">
            Every conversation is saved as you go. Start one to ask a question; you can stop a reply, edit what you asked
            and retry at any point.
          </p>
          <button
            type="button"
            data-testid="start-conversation"
            onClick={() => create.mutate()}
            disabled={create.isPending}
            className="mt-7 inline-flex items-center gap-2 rounded-xl bg-accent px-5 py-2.5 text-sm font-medium text-on-accent shadow-sm hover:bg-accent-hover disabled:opacity-60"
          >
            <PlusIcon />
            {create.isPending ? 'Creating…' : 'New conversation'}
          </button>
          {create.error ? (
            <p role="alert" className="mt-4 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
              {create.error.message}
            </p>
          ) : null}
        </div>
      </div>
    </>
  );
}
