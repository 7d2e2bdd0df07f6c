import type { InspectorEndpoints } from '../inspector/endpoints';
import { factPicks } from '../inspector/why-picks';
import { staffApi, staffKeys } from './api';

/** Staff reading the turns of the user `ownerId`, in the view `view` (its reads are audited as one entry). */
export const staffEndpoints = (ownerId: string, view: string): InspectorEndpoints => ({
  cacheKey: 'staff',
  turnContext: (messageId) => staffApi.turn(messageId, view),
  replay: staffApi.replay,
  messageLocation: (messageId) => staffApi.messageLocation(messageId, view),
  why: staffApi.why,
  memoryPicks: async (q) =>
    factPicks((await staffApi.user(ownerId, view)).facts.filter((f) => f.content.toLowerCase().includes(q.toLowerCase()))),
  messageHref: (conversationId, messageId) => `/staff/conversations/${conversationId}#message-${messageId}`,
  turnKey: staffKeys.turn,
  viewer: { audience: 'staff', ownerId },
});
