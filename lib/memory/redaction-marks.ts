/**
 * How redacted words read, wherever memory, the model or a record shows them. No imports, so the
 * offline model reads them too.
 */

/** What a forgotten part of a message reads as, wherever memory or the model reads it. */
export const FORGOTTEN = '[forgotten by the user]';
/** What a part the user corrected reads as: their correction, never the old words. */
export const correctedBy = (replacement: string) => `[corrected by the user: ${replacement}]`;
/** A correction as `correctedBy` writes it, anywhere in a text; its first group is the replacement. */
export const CORRECTION = /\[corrected by the user: (.*?)\]/gsu;
/** What a deleted text reads as inside a turn record (the audit snapshot). */
export const REDACTED = '[redacted]';
