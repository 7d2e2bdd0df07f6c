'use client';

import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { api, memoryKeys } from '../api';
import type { ReplayOptions, ReplayResponse, TurnContext, WhyAnswer } from '../api-types';
import type { Viewer } from '../describe-actor';
import { ApiError, type MessageLocation } from '../http';
import { type MemoryPick, ownMemoryPicks, ownWhy } from './why-picks';

/**
 * What the inspector reads from the server, and where its links go. The chat uses the user's own
 * routes; the staff console gives the staff routes (audited), which read any user's turns, so the
 * same turn view works in both places.
 */
export type InspectorEndpoints = {
  /** Separates the two readers' caches (a staff reader must not see a user's cached answers, nor the reverse). */
  cacheKey: 'memory' | 'staff';
  turnContext: (messageId: string) => Promise<TurnContext>;
  replay: (messageId: string, options: ReplayOptions) => Promise<ReplayResponse>;
  messageLocation: (messageId: string) => Promise<MessageLocation>;
  /** Why a memory item (`fact:<id>`, `episode:<id>`, `summary:<conversation>`) was or was not in a reply's context. */
  why: (messageId: string, item: string) => Promise<WhyAnswer>;
  /** The owner's memory items containing a text, to ask about. */
  memoryPicks: (q: string) => Promise<MemoryPick[]>;
  messageHref: (conversationId: string, messageId: string) => string;
  /** The query key of a turn's record (the user's key is the one the chat's corrections invalidate). */
  turnKey: (messageId: string) => readonly unknown[];
  /** Who reads: the user about their own memory ("you"), or staff about a user's ("the user"). */
  viewer: Viewer;
};

const userEndpoints: InspectorEndpoints = {
  cacheKey: 'memory',
  turnContext: api.getTurnContext,
  replay: api.replayTurn,
  messageLocation: api.messageLocation,
  why: ownWhy,
  memoryPicks: ownMemoryPicks,
  messageHref: (conversationId, messageId) => `/c/${conversationId}#message-${messageId}`,
  turnKey: memoryKeys.turn,
  viewer: { audience: 'owner' },
};

const EndpointsContext = createContext<InspectorEndpoints>(userEndpoints);

export function InspectorEndpointsProvider({ endpoints, children }: { endpoints: InspectorEndpoints; children: ReactNode }) {
  return <EndpointsContext.Provider value={endpoints}>{children}</EndpointsContext.Provider>;
}

export const useEndpoints = () => useContext(EndpointsContext);
export const useViewer = () => useContext(EndpointsContext).viewer;

/** The query key of a turn's record for this reader. */
export const turnKey = (endpoints: InspectorEndpoints, messageId: string) => endpoints.turnKey(messageId);

/** The conversation of a message; `gone` when it no longer exists (deleted, or not the reader's). */
export function useMessageLocation(id: string) {
  const endpoints = useEndpoints();
  const query = useQuery({
    queryKey: [endpoints.cacheKey, 'message-location', id],
    queryFn: () => endpoints.messageLocation(id),
    staleTime: Infinity,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });
  return { ...query, gone: query.error instanceof ApiError && query.error.status === 404 };
}
