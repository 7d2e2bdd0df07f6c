'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api, conversationsKey } from './api';
import { ChatHeader, HEADER_BUTTON, HEADER_LABEL } from './chat-header';
import { useChatSession } from './chat-session';
import { useClearConversation } from './clear-conversation';
import { Composer, takeFirstMessage } from './composer';
import { ConfirmDialog } from './confirm-dialog';
import { ConversationIntro } from './conversation-intro';
import { DeleteMessageDialog } from './delete-message';
import { AlertIcon, CloseIcon, EraseIcon } from './icons';
import { boundMessage, useInspector, useInspectorStore, usePublishChat } from './inspector/store';
import { MessageView, ThinkingIndicator } from './message';
import { useMessageTokens } from './message-tokens';
import { useShell } from './shell-context';
import { type ChatMessage, type ConversationSummary, type MessageStatus, type ModelInfo, tooLong, validateMessage } from './types';

type Props = {
  conversation: ConversationSummary;
  initialMessages: ChatMessage[];
  model: ModelInfo;
};

/** One conversation: the message list, the composer and the streaming turn (useChatSession). */
export function Chat({ conversation, initialMessages, model }: Props) {
  const conversationId = conversation.id;
  const [input, setInput] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const inputTokens = useMessageTokens(input, model);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const session = useChatSession({
    conversationId,
    initialMessages,
    restoreInput: (text) => setInput((current) => (current.trim() === '' ? text : current)),
  });
  const { messages, status, busy, stop, notice, setNotice } = session;
  const clearing = useClearConversation(conversationId, () => {
    session.setMessages([]);
    setNotice(null);
    session.announce('Conversation cleared.');
  });

  // The inspector column reads the messages (and their streamed turn records) from here.
  usePublishChat(conversationId, messages, status);
  const { inspector } = useShell();
  const inspectorStore = useInspectorStore();
  const inspectedId = useInspector((state) => boundMessage(state)?.id ?? null);
  const inspect = useCallback(
    (id: string) => {
      inspectorStore?.pin(id);
      inspector.show();
    },
    [inspectorStore, inspector],
  );
  // `[n]` in a reply: the inspector shows that reply, at the item it cited.
  const cite = useCallback(
    (id: string, n: number) => {
      inspectorStore?.focusItem(id, { n });
      inspector.show();
    },
    [inspectorStore, inspector],
  );

  // Esc stops a streaming reply (unless a dialog or the inspector's drawer has it to close first).
  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      if (document.querySelector('dialog[open]') || (inspector.drawer && inspector.open)) return;
      event.preventDefault();
      void stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, stop, inspector.drawer, inspector.open]);

  // A conversation started from the home page's message box: send the message typed there, once.
  // Only on arrival (the message is taken from storage as it is read), with the values of that render:
  // biome-ignore lint/correctness/useExhaustiveDependencies(messages.length): read on arrival only
  // biome-ignore lint/correctness/useExhaustiveDependencies(model): read on arrival only
  // biome-ignore lint/correctness/useExhaustiveDependencies(send): read on arrival only
  useEffect(() => {
    const text = takeFirstMessage(conversationId);
    if (text === null) return;
    if (messages.length > 0 || validateMessage(text, model, null)) setInput(text);
    else send(text);
  }, [conversationId]);

  // The conversation title lives in the sidebar's query (it is set from the first message).
  const { data: conversations } = useQuery({
    queryKey: conversationsKey,
    queryFn: api.listConversations,
    enabled: false,
  });
  const title = conversations?.find((c) => c.id === conversationId)?.title ?? conversation.title;
  useEffect(() => {
    document.title = `${title} · memlens`;
  }, [title]);

  const lastMeta = [...messages].reverse().find((m) => m.metadata?.offline !== undefined)?.metadata;
  const offline = lastMeta?.offline ?? model.offline;
  const modelName = lastMeta?.model ?? model.chat;

  // ---- actions

  const submit = () => {
    if (busy) return;
    const problem = validateMessage(input, model, inputTokens);
    if (problem) {
      setInputError(problem);
      return;
    }
    send(input);
  };

  const send = (text: string) => {
    setInput('');
    setInputError(null);
    setEditingId(null);
    stickToBottom.current = true;
    session.send(text);
  };

  const saveEdit = (id: string, text: string) => {
    if (busy) return;
    setEditingId(null);
    stickToBottom.current = true;
    session.edit(id, text);
  };

  const retry = () => {
    if (busy) return;
    stickToBottom.current = true;
    session.retry();
  };

  // ---- scrolling: follow the reply while the reader is at the bottom

  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies(messages): new content is what moves the bottom
  // biome-ignore lint/correctness/useExhaustiveDependencies(status): new content is what moves the bottom
  // biome-ignore lint/correctness/useExhaustiveDependencies(notice): new content is what moves the bottom
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages, status, notice]);

  // ---- rendering

  const last = messages[messages.length - 1];
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user');
  const showThinking = busy && (!last || last.role === 'user');
  // Retry regenerates the answer to the last question: offered on that answer when it did not complete,
  // or on its own when the question got no answer at all.
  const retryable = (m: ChatMessage, index: number) =>
    !busy && index === messages.length - 1 && m.role === 'assistant' && ['failed', 'incomplete'].includes(displayStatus(m, false));
  const unansweredQuestion = !busy && last?.role === 'user';

  return (
    <>
      <ChatHeader
        title={title}
        model={modelName}
        offline={offline}
        actions={
          <button
            type="button"
            data-testid="clear-conversation"
            onClick={clearing.ask}
            disabled={messages.length === 0 || busy}
            className={`${HEADER_BUTTON} text-muted disabled:pointer-events-none disabled:opacity-40`}
            title="Clear conversation"
          >
            <EraseIcon />
            <span className={HEADER_LABEL}>Clear</span>
            <span className="sr-only"> conversation</span>
          </button>
        }
      />

      <div
        ref={scrollRef}
        onScroll={(event) => {
          const el = event.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
        className="min-h-0 flex-1 overflow-y-auto"
      >
        <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6 sm:px-6" data-testid="message-list">
          {messages.length === 0 && !busy ? <ConversationIntro onPick={(text) => setInput(text)} /> : null}
          {messages.map((message, index) => {
            const live = busy && index === messages.length - 1 && message.role === 'assistant';
            return (
              <MessageView
                key={message.id}
                message={message}
                status={displayStatus(message, live)}
                live={live}
                editing={editingId === message.id}
                canEdit={!busy && message.role === 'user'}
                canRetry={retryable(message, index) || (unansweredQuestion && index === lastUserIndex && index === messages.length - 1)}
                model={model}
                onEdit={() => setEditingId(message.id)}
                onCancelEdit={() => setEditingId(null)}
                onSaveEdit={(text) => saveEdit(message.id, text)}
                onRetry={retry}
                onDelete={
                  busy || editingId === message.id || message.metadata?.status === 'streaming' ? undefined : () => setDeleting(message)
                }
                onInspect={inspector.available && message.role === 'assistant' ? () => inspect(message.id) : undefined}
                onCite={inspector.available && message.role === 'assistant' ? cite : undefined}
                inspected={inspector.open && inspectedId === message.id}
              />
            );
          })}
          {showThinking ? <ThinkingIndicator /> : null}
          {notice ? (
            <div
              role="alert"
              data-testid="chat-error"
              className="flex items-start gap-3 rounded-xl border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
            >
              <AlertIcon className="mt-0.5 shrink-0" />
              <p className="min-w-0 flex-1 break-words">{notice}</p>
              <button type="button" onClick={() => setNotice(null)} className="rounded p-0.5 hover:bg-danger/10" aria-label="Dismiss error">
                <CloseIcon width={14} height={14} />
              </button>
            </div>
          ) : null}
        </div>
      </div>

      <div className="shrink-0 px-4 pb-4 sm:px-6">
        <div className="mx-auto w-full max-w-3xl">
          <Composer
            value={input}
            onChange={(value) => {
              setInput(value);
              if (inputError) setInputError(null);
            }}
            error={inputError ?? tooLong(input, model, inputTokens)}
            maxChars={model.maxMessageChars}
            tokens={{ count: inputTokens, max: model.maxMessageTokens }}
            busy={busy}
            onSubmit={submit}
            onStop={() => void stop()}
          />
        </div>
      </div>

      <p className="sr-only" aria-live="polite" role="status">
        {session.announcement}
      </p>

      <DeleteMessageDialog
        message={deleting}
        onCancel={() => setDeleting(null)}
        onDeleted={(removal) => {
          setDeleting(null);
          session.setMessages((current) => current.filter((m) => m.id !== removal.deleted));
          session.announce('Message deleted.');
        }}
      />

      <ConfirmDialog
        open={clearing.confirming}
        title="Clear this conversation?"
        description="Every message in this conversation will be deleted. The conversation itself stays in your list."
        confirmLabel="Clear messages"
        busy={clearing.clearing}
        error={clearing.error}
        onConfirm={() => void clearing.clear()}
        onCancel={clearing.cancel}
        testId="clear-dialog"
      />
    </>
  );
}

function displayStatus(message: ChatMessage, live: boolean): MessageStatus {
  if (live) return 'streaming';
  return message.metadata?.status ?? 'complete';
}
