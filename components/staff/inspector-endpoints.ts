import type { InspectorEndpoints } from '../inspector/endpoints';
import { staffApi, staffKeys } from './api';

/** Staff reading the turns of the user `ownerId`. */
export const staffEndpoints = (ownerId: string): InspectorEndpoints => ({
  cacheKey: 'staff',
  turnContext: staffApi.turn,
  replay: staffApi.replay,
  messageLocation: staffApi.messageLocation,
  messageHref: (conversationId, messageId) => `/staff/conversations/${conversationId}#message-${messageId}`,
  turnKey: staffKeys.turn,
  viewer: { audience: 'staff', ownerId },
});
