// How figures, dates and ids read everywhere in the app.

export const formatTokens = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

export const formatMs = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US')} ms`;

export const formatScore = (score: number | null) => (score === null ? '—' : score < 0.1 ? score.toFixed(4) : score.toFixed(3));

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '—');

export const shortId = (id: string) => id.slice(0, 8);

/** "1 fact", "2 facts", "1,200 messages". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
