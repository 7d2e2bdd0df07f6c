import type { InspectorEndpoints } from '../inspector/endpoints';
import { staffApi, staffKeys } from './api';

/** Staff reading the turns of the user `ownerId`, in the view `view` (its reads are audited as one entry). */
export const staffEndpoints = (ownerId: string, view: string): InspectorEndpoints => ({
  cacheKey: 'staff',
  turnContext: (messageId) => staffApi.turn(messageId, view),
  replay: staffApi.replay,
  messageLocation: (messageId) => staffApi.messageLocation(messageId, view),
  messageHref: (conversationId, messageId) => `/staff/conversations/${conversationId}#message-${messageId}`,
  turnKey: staffKeys.turn,
  viewer: { audience: 'staff', ownerId },
});
