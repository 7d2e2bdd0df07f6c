'use client';

import { useChat } from '@ai-sdk/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DefaultChatTransport } from 'ai';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api, conversationsKey, onMemoryChanged } from './api';
import { useShell } from './app-shell';
import { ChatHeader } from './chat-header';
import { Composer, takeFirstMessage } from './composer';
import { ConfirmDialog } from './confirm-dialog';
import { ApiError, parseApiError } from './http';
import { AlertIcon, CloseIcon, EraseIcon } from './icons';
import { boundMessage, useInspector, useInspectorStore, usePublishChat } from './inspector/store';
import { MessageView, ThinkingIndicator } from './message';
import {
  type ChatMessage,
  type ConversationSummary,
  type MessageStatus,
  type ModelInfo,
  textOf,
  toChatMessage,
  validateMessage,
} from './types';

type Props = {
  conversation: ConversationSummary;
  initialMessages: ChatMessage[];
  model: ModelInfo;
};

/** What the request in flight was for, so a failure can be reported and undone sensibly. */
type Pending = { kind: 'send'; id: string; text: string } | { kind: 'edit'; id: string } | { kind: 'retry' };

/**
 * One conversation: the message list, the composer and the streaming turn.
 * The server owns the history; this component sends only the newest message (or a retry trigger)
 * and re-reads the stored messages whenever the two could have drifted apart.
 */
export function Chat({ conversation, initialMessages, model }: Props) {
  const conversationId = conversation.id;
  const queryClient = useQueryClient();
  const [input, setInput] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [editingId, setEditingId] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [clearError, setClearError] = useState<string | null>(null);
  const lastErrorRef = useRef<string | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const statusRef = useRef<string>('ready');

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: '/api/chat',
        // The server keeps the history: send the newest message only, or the retry trigger.
        prepareSendMessagesRequest: ({ id, messages, trigger }) => {
          if (trigger === 'regenerate-message') return { body: { conversationId: id, trigger } };
          const last = messages[messages.length - 1];
          return { body: { conversationId: id, message: { id: last.id, text: textOf(last) } } };
        },
      }),
    [],
  );

  const { messages, setMessages, sendMessage, regenerate, stop, status } = useChat<ChatMessage>({
    id: conversationId,
    messages: initialMessages,
    transport,
    generateId: () => crypto.randomUUID(),
    onError: (error) => {
      lastErrorRef.current = describeChatError(error);
    },
    onFinish: ({ message, messages: all, isAbort, isError, isDisconnect }) => {
      const pending = pendingRef.current;
      pendingRef.current = null;
      const error = lastErrorRef.current;
      lastErrorRef.current = null;
      void queryClient.invalidateQueries({ queryKey: conversationsKey });

      const streamed = all.some((m) => m.id === message.id);
      if (streamed) {
        // The reply started: record how it ended, as the server does.
        const ended: MessageStatus = isAbort || isDisconnect ? 'incomplete' : isError ? 'failed' : 'complete';
        const endError = isDisconnect ? 'The connection was lost while this reply was streaming.' : isError ? error : null;
        setMessages((current) =>
          current.map((m) => (m.id === message.id ? { ...m, metadata: { ...m.metadata, status: ended, error: endError } } : m)),
        );
        setAnnouncement(
          ended === 'complete' ? 'Reply complete.' : ended === 'incomplete' ? 'Reply stopped.' : `Reply failed: ${endError ?? ''}`,
        );
        if (isDisconnect) void resync();
        return;
      }

      // No reply started: the request was refused, failed or stopped early. Show why, and re-read what the server kept.
      if (isError && error) {
        setNotice(error);
        setAnnouncement(`Error: ${error}`);
      }
      if (isError || isAbort) {
        void resync().then((stored) => {
          if (pending?.kind === 'send' && stored && !stored.some((m) => m.id === pending.id)) {
            // The message was not stored: give its text back rather than lose it.
            setInput((current) => (current.trim() === '' ? pending.text : current));
          }
        });
      }
    },
  });

  // A new question is stored under an id of the server's, which its reply's first chunk names: the
  // chat takes it at once, so an edit or a source link names the stored message.
  useEffect(() => {
    const pending = pendingRef.current;
    const [question, reply] = messages.slice(-2);
    const storedId = reply?.role === 'assistant' ? reply.metadata?.userMessageId : undefined;
    if (pending?.kind !== 'send' || question?.id !== pending.id || !storedId || storedId === pending.id) return;
    pendingRef.current = { ...pending, id: storedId };
    setMessages((current) => current.map((m) => (m.id === pending.id ? { ...m, id: storedId } : m)));
  }, [messages, setMessages]);

  const busy = status === 'submitted' || status === 'streaming';
  statusRef.current = status;

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
  useEffect(() => {
    const text = takeFirstMessage(conversationId);
    if (text === null) return;
    if (messages.length > 0 || validateMessage(text, model.maxMessageChars)) setInput(text);
    else send(text);
    // Only on arrival: the message is taken from storage as it is read.
  }, [conversationId]);

  // The server titles an untitled conversation as the turn starts: refresh the list then.
  useEffect(() => {
    if (status === 'streaming') void queryClient.invalidateQueries({ queryKey: conversationsKey });
  }, [status, queryClient]);

  /** Replaces the local messages with the stored ones (when nothing is streaming here). */
  const resync = useCallback(async () => {
    try {
      const stored = await api.listMessages(conversationId);
      if (statusRef.current === 'submitted' || statusRef.current === 'streaming') return undefined;
      setMessages(stored.map(toChatMessage));
      return stored;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setNotice('This conversation no longer exists.');
      return undefined;
    }
  }, [conversationId, setMessages]);

  // A correction of memory in the inspector (a fact edited or deleted, everything forgotten) marks
  // parts of stored messages: re-read them, now or as soon as the reply in flight has ended.
  const memoryChangedRef = useRef(false);
  useEffect(
    () =>
      onMemoryChanged(() => {
        if (statusRef.current === 'submitted' || statusRef.current === 'streaming') memoryChangedRef.current = true;
        else void resync();
      }),
    [resync],
  );
  useEffect(() => {
    if (busy || !memoryChangedRef.current) return;
    memoryChangedRef.current = false;
    void resync();
  }, [busy, resync]);

  // A reply stored as `streaming` that this tab is not receiving (another tab, or a reply cut off
  // a moment ago) is re-read with backoff until the server finalises it.
  const serverStreaming = !busy && messages.some((m) => m.metadata?.status === 'streaming');
  const pollRound = useRef(0);
  useEffect(() => {
    if (!serverStreaming) {
      pollRound.current = 0;
      return;
    }
    const delay = Math.min(800 * 1.5 ** pollRound.current, 5000);
    pollRound.current += 1;
    const timer = setTimeout(() => void resync(), delay);
    return () => clearTimeout(timer);
  }, [serverStreaming, messages, resync]);

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
    const problem = validateMessage(input, model.maxMessageChars);
    if (problem) {
      setInputError(problem);
      return;
    }
    send(input);
  };

  const send = (text: string) => {
    const id = crypto.randomUUID();
    pendingRef.current = { kind: 'send', id, text };
    setInput('');
    setInputError(null);
    setNotice(null);
    setEditingId(null);
    stickToBottom.current = true;
    void sendMessage({ id, role: 'user', parts: [{ type: 'text', text }] });
  };

  const saveEdit = (id: string, text: string) => {
    if (busy) return;
    pendingRef.current = { kind: 'edit', id };
    setEditingId(null);
    setNotice(null);
    stickToBottom.current = true;
    // Same id, new text: the server replaces the message and drops what followed; so does useChat.
    void sendMessage({ text, messageId: id });
  };

  const retry = () => {
    if (busy) return;
    pendingRef.current = { kind: 'retry' };
    setNotice(null);
    stickToBottom.current = true;
    void regenerate();
  };

  const clearConversation = async () => {
    setClearing(true);
    setClearError(null);
    try {
      await api.clearMessages(conversationId);
      setMessages([]);
      setConfirmClear(false);
      setNotice(null);
      setAnnouncement('Conversation cleared.');
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
    } catch (error) {
      setClearError(error instanceof Error ? error.message : String(error));
    } finally {
      setClearing(false);
    }
  };

  // ---- scrolling: follow the reply while the reader is at the bottom

  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
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
            onClick={() => {
              setClearError(null);
              setConfirmClear(true);
            }}
            disabled={messages.length === 0 || busy}
            className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm text-muted hover:bg-subtle hover:text-fg disabled:pointer-events-none disabled:opacity-40"
          >
            <EraseIcon />
            <span className="hidden @lg:inline">Clear</span>
            <span className="sr-only @lg:hidden">Clear conversation</span>
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
                maxChars={model.maxMessageChars}
                onEdit={() => setEditingId(message.id)}
                onCancelEdit={() => setEditingId(null)}
                onSaveEdit={(text) => saveEdit(message.id, text)}
                onRetry={retry}
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
              if (inputError) setInputError(value.length > model.maxMessageChars ? validateMessage(value, model.maxMessageChars) : null);
            }}
            error={inputError ?? (input.length > model.maxMessageChars ? validateMessage(input, model.maxMessageChars) : null)}
            maxChars={model.maxMessageChars}
            busy={busy}
            onSubmit={submit}
            onStop={() => void stop()}
          />
        </div>
      </div>

      <p className="sr-only" aria-live="polite" role="status">
        {announcement}
      </p>

      <ConfirmDialog
        open={confirmClear}
        title="Clear this conversation?"
        description="Every message in this conversation will be deleted. The conversation itself stays in your list."
        confirmLabel="Clear messages"
        busy={clearing}
        error={clearError}
        onConfirm={() => void clearConversation()}
        onCancel={() => setConfirmClear(false)}
        testId="clear-dialog"
      />
    </>
  );
}

function displayStatus(message: ChatMessage, live: boolean): MessageStatus {
  if (live) return 'streaming';
  return message.metadata?.status ?? 'complete';
}

/** The chat request's errors: the API's `{ error: { message } }`, a stream error, or a network failure. */
function describeChatError(error: Error): string {
  const fromApi = parseApiError(error.message);
  if (fromApi) return fromApi.message;
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.';
  return error.message || 'Something went wrong.';
}

const suggestions = [
  'My name is Ada and I work on compilers. What should I read next?',
  'Summarise the main idea of spaced repetition in three bullet points.',
  'I am planning a trip to Lisbon in May. What should I pack?',
];

function ConversationIntro({ onPick }: { onPick: (text: string) => void }) {
  return (
    <div className="mx-auto mt-[8vh] max-w-lg text-center">
      <h2 className="text-xl font-semibold tracking-tight">What is on your mind?</h2>
      <p className="mt-2 text-sm leading-6 text-muted">
        Ask anything. Every message is saved, and you can edit a question later to take the conversation another way.
      </p>
      <ul className="mt-6 grid gap-2 text-left">
        {suggestions.map((text) => (
          <li key={text}>
            <button
              type="button"
              onClick={() => onPick(text)}
              className="w-full rounded-xl border border-line bg-surface px-4 py-3 text-sm text-muted hover:border-accent/40 hover:text-fg"
            >
              {text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
