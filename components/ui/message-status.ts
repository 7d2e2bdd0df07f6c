import type { MessageStatus } from '../types';
import type { Tone } from './badge';

/** How a message's status reads on its badge, in the inspector and in the staff console alike. */
export const MESSAGE_STATUS: Record<MessageStatus, { label: string; tone: Exclude<Tone, 'neutral'> }> = {
  streaming: { label: 'Streaming', tone: 'accent' },
  complete: { label: 'Complete', tone: 'good' },
  incomplete: { label: 'Stopped', tone: 'warn' },
  failed: { label: 'Failed', tone: 'danger' },
};

/** The badge of a status, one the table does not know read as it is. */
export const messageStatusBadge = (status: string): { label: string; tone: Exclude<Tone, 'neutral'> } =>
  (MESSAGE_STATUS as Record<string, { label: string; tone: Exclude<Tone, 'neutral'> } | undefined>)[status] ?? {
    label: status,
    tone: 'warn',
  };
