import type { InspectorEndpoints } from '../inspector/endpoints';
import { factPicks } from '../inspector/why-picks';
import { staffApi, staffKeys } from './api';

/** Staff reading the turns of the user `ownerId`. */
export const staffEndpoints = (ownerId: string): InspectorEndpoints => ({
  cacheKey: 'staff',
  turnContext: staffApi.turn,
  replay: staffApi.replay,
  messageLocation: staffApi.messageLocation,
  why: staffApi.why,
  memoryPicks: async (q) =>
    factPicks((await staffApi.user(ownerId)).facts.filter((f) => f.content.toLowerCase().includes(q.toLowerCase()))),
  messageHref: (conversationId, messageId) => `/staff/conversations/${conversationId}#message-${messageId}`,
  turnKey: staffKeys.turn,
  viewer: { audience: 'staff', ownerId },
});
