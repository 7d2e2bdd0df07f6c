'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, conversationsKey } from './api';
import { ChatHeader } from './chat-header';
import { Composer, stashFirstMessage } from './composer';
import { LensIcon, PlusIcon } from './icons';
import { useMessageTokens } from './message-tokens';
import { type ModelInfo, tooLong, validateMessage } from './types';

const suggestions = [
  'My name is Ada and I work on compilers. What should I read next?',
  'I am planning a trip to Lisbon in May. What should I pack?',
];

/**
 * Shown at / when the user has no conversation yet: a message box that starts one (the
 * conversation is created, then its page sends the message), or an empty conversation.
 */
export function EmptyState({ model }: { model: ModelInfo }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [input, setInput] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const inputTokens = useMessageTokens(input, model);
  const create = useMutation({
    mutationFn: (_firstMessage: string | null) => api.createConversation(),
    onSuccess: (conversation, firstMessage) => {
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
      if (firstMessage !== null) stashFirstMessage(conversation.id, firstMessage);
      router.push(`/c/${conversation.id}`);
    },
  });
  const submit = () => {
    const problem = validateMessage(input, model, inputTokens);
    if (problem) {
      setInputError(problem);
      return;
    }
    create.mutate(input);
  };

  return (
    <>
      <ChatHeader title="Welcome" model={model.chat} offline={model.offline} />
      <div className="grid flex-1 place-items-center overflow-y-auto px-4 py-10 sm:px-6">
        <div className="w-full max-w-xl text-center">
          <span className="mx-auto grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
            <LensIcon width={24} height={24} />
          </span>
          <h2 className="mt-5 text-2xl font-semibold tracking-tight">A chat whose memory you can see</h2>
          <p className="mx-auto mt-3 max-w-md text-[15px] leading-7 text-muted">
            Every conversation is saved as you go, and next to each reply you can see what memlens remembered for it. You can stop a reply,
            edit what you asked and retry at any point.
          </p>
          <div className="mt-7 text-left" data-testid="home-composer">
            <Composer
              value={input}
              onChange={(value) => {
                setInput(value);
                if (inputError) setInputError(null);
              }}
              error={inputError ?? tooLong(input, model, inputTokens)}
              maxChars={model.maxMessageChars}
              tokens={{ count: inputTokens, max: model.maxMessageTokens }}
              busy={create.isPending}
              onSubmit={submit}
              placeholder="Ask anything to start a conversation…"
              sendLabel={create.isPending ? 'Starting…' : 'Send'}
            />
          </div>
          <ul className="mt-3 flex flex-wrap justify-center gap-2">
            {suggestions.map((text) => (
              <li key={text}>
                <button
                  type="button"
                  onClick={() => setInput(text)}
                  className="rounded-full border border-line bg-surface px-3 py-1 text-xs text-muted hover:border-accent/40 hover:text-fg"
                >
                  {text}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            data-testid="start-conversation"
            onClick={() => create.mutate(null)}
            disabled={create.isPending}
            className="mt-6 inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium text-muted hover:bg-subtle hover:text-fg disabled:opacity-60"
          >
            <PlusIcon width={15} height={15} />
            Start an empty conversation
          </button>
          <p className="mt-4 text-sm text-muted">
            <Link href="/memory" data-testid="open-memory" className="font-medium text-accent hover:underline">
              See what memlens remembers about you
            </Link>
          </p>
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
