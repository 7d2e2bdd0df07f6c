/** A part of a whole as a fraction; null when there is nothing to count. */
export const share = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** A share as the reports print it: "93.2 %", or "n/a". */
export const percent = (rate: number | null): string => (rate === null ? 'n/a' : `${(rate * 100).toFixed(1)} %`);
