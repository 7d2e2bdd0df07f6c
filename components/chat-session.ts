'use client';

import { useChat } from '@ai-sdk/react';
import { useQueryClient } from '@tanstack/react-query';
import { DefaultChatTransport } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, conversationsKey, memoryKeys, onMemoryChanged } from './api';
import { ApiError, parseApiError } from './http';
import { type ChatMessage, type MessageStatus, textOf, toChatMessage } from './types';

/** What the request in flight was for, so a failure can be reported and undone sensibly. */
type Pending = { kind: 'send'; id: string; text: string } | { kind: 'edit'; id: string } | { kind: 'retry' };

/**
 * One conversation's messages and its streaming turn. The server owns the history: this sends only
 * the newest message (or a retry trigger) and re-reads the stored messages whenever the two could
 * have drifted apart. `restoreInput` gets back the text of a message the server did not keep.
 */
export function useChatSession({
  conversationId,
  initialMessages,
  restoreInput,
}: {
  conversationId: string;
  initialMessages: ChatMessage[];
  restoreInput: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
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
        // A reply read in one go (a busy machine delivers the whole stream at once) ends before the
        // effect below has run: the question takes its stored id here too.
        const sent = pending?.kind === 'send' ? pending : undefined;
        const storedId = sent && message.metadata?.userMessageId;
        setMessages((current) =>
          current.map((m) =>
            m.id === message.id
              ? { ...m, metadata: { ...m.metadata, status: ended, error: endError } }
              : storedId && m.id === sent.id
                ? { ...m, id: storedId }
                : m,
          ),
        );
        setAnnouncement(
          ended === 'complete' ? 'Reply complete.' : ended === 'incomplete' ? 'Reply stopped.' : `Reply failed: ${endError ?? ''}`,
        );
        if (isDisconnect) void resync();
        // The turn may have corrected memory before replying (a request to forget): show its marks now,
        // and let memory views and earlier replies' notices read again (a fact they named may be gone).
        else {
          void refreshMarks();
          void queryClient.invalidateQueries({ queryKey: memoryKeys.all });
        }
        return;
      }

      // No reply started: the request was refused, failed or stopped early. Show why, and re-read what the server kept.
      if (isError && error) {
        setNotice(error);
        setAnnouncement(`Error: ${error}`);
      }
      if (isError || isAbort) {
        void resync().then((stored) => {
          // The message was not stored: give its text back rather than lose it.
          if (pending?.kind === 'send' && stored && !stored.some((m) => m.id === pending.id)) restoreInput(pending.text);
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

  /** Takes the stored marks of the messages shown, leaving everything else of them (streamed turn records) as it is. */
  const refreshMarks = useCallback(async () => {
    try {
      const marks = new Map((await api.listMessages(conversationId)).map((m) => [m.id, m.marks]));
      setMessages((current) => current.map((m) => (marks.has(m.id) ? { ...m, metadata: { ...m.metadata, marks: marks.get(m.id) } } : m)));
    } catch {
      // The marks show on the next full read.
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
  // biome-ignore lint/correctness/useExhaustiveDependencies(messages): each re-read that still shows it streaming schedules the next, later one
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

  return {
    messages,
    setMessages,
    status,
    busy,
    stop,
    notice,
    setNotice,
    announcement,
    announce: setAnnouncement,
    /** Sends a new question. */
    send: (text: string) => {
      const id = crypto.randomUUID();
      pendingRef.current = { kind: 'send', id, text };
      setNotice(null);
      void sendMessage({ id, role: 'user', parts: [{ type: 'text', text }] });
    },
    /** Same id, new text: the server replaces the message and drops what followed; so does useChat. */
    edit: (id: string, text: string) => {
      pendingRef.current = { kind: 'edit', id };
      setNotice(null);
      void sendMessage({ text, messageId: id });
    },
    /** Answers the last question again. */
    retry: () => {
      pendingRef.current = { kind: 'retry' };
      setNotice(null);
      void regenerate();
    },
  };
}

/** The chat request's errors: the API's `{ error: { message } }`, a stream error, or a network failure. */
function describeChatError(error: Error): string {
  const fromApi = parseApiError(error.message);
  if (fromApi) return fromApi.message;
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.';
  return error.message || 'Something went wrong.';
}
