'use client';

import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { api, memoryKeys } from '../api';
import { ApiError, type MessageLocation } from '../http';
import { staffApi, staffKeys } from '../staff/api';
import type { ReplayOptions, ReplayResponse, TurnContext } from './types';

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
  messageHref: (conversationId: string, messageId: string) => string;
  /** Who reads: the user about their own memory ("you"), or staff about a user's ("the user"). */
  viewer: Viewer;
};

export type Viewer = { audience: 'owner' } | { audience: 'staff'; ownerId: string };

const userEndpoints: InspectorEndpoints = {
  cacheKey: 'memory',
  turnContext: api.getTurnContext,
  replay: api.replayTurn,
  messageLocation: api.messageLocation,
  messageHref: (conversationId, messageId) => `/c/${conversationId}#message-${messageId}`,
  viewer: { audience: 'owner' },
};

/** Staff reading the turns of the user `ownerId`. */
export const staffEndpoints = (ownerId: string): InspectorEndpoints => ({
  cacheKey: 'staff',
  turnContext: staffApi.turn,
  replay: staffApi.replay,
  messageLocation: staffApi.messageLocation,
  messageHref: (conversationId, messageId) => `/staff/conversations/${conversationId}#message-${messageId}`,
  viewer: { audience: 'staff', ownerId },
});

const EndpointsContext = createContext<InspectorEndpoints>(userEndpoints);

export function InspectorEndpointsProvider({ endpoints, children }: { endpoints: InspectorEndpoints; children: ReactNode }) {
  return <EndpointsContext.Provider value={endpoints}>{children}</EndpointsContext.Provider>;
}

export const useEndpoints = () => useContext(EndpointsContext);
export const useViewer = () => useContext(EndpointsContext).viewer;

/** The query key of a turn's record for this reader (the user's key is the one the chat's corrections invalidate). */
export const turnKey = (endpoints: InspectorEndpoints, messageId: string) =>
  endpoints.cacheKey === 'memory' ? memoryKeys.turn(messageId) : staffKeys.turn(messageId);

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
