import { REDACTED } from '../api-types';
import { VisibleText } from '../visible-text';

// Markers the server writes into records and into the messages it sends: deleted memory removed
// from a record afterwards, and a message's forgotten or corrected part as the model was sent it.
const MARKERS = /(\[redacted\]|\[forgotten by the user\]|\[corrected by the user: [^\]\n]*\])/;

const MARKER_TITLES: Array<[string, string]> = [
  [REDACTED, 'Deleted memory was removed here after the reply'],
  ['[forgotten by the user]', 'What was here was deleted from memory: the model was sent this marker instead'],
  ['[corrected by the user', 'What was here was corrected: the model was sent the correction'],
];

/** Text of a record with its markers (`[redacted]`, a forgotten or corrected part) and its invisible characters set off from the rest. */
export function RedactedText({ text }: { text: string }) {
  if (!text.includes('[')) return <VisibleText text={text} />;
  const parts = text.split(MARKERS);
  if (parts.length === 1) return <VisibleText text={text} />;
  return (
    <>
      {parts.map((part, index) => {
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
        if (index % 2 === 0) return <VisibleText key={index} text={part} />;
        const redacted = part === REDACTED;
        return (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
            key={index}
            data-testid={redacted ? 'redacted-text' : 'marker-text'}
            title={MARKER_TITLES.find(([start]) => part.startsWith(start))?.[1]}
            className={`rounded-sm px-0.5 font-mono text-[0.9em] ring-1 ${
              redacted ? 'bg-danger-soft text-danger ring-danger/25' : 'bg-warn-soft text-warn ring-warn/25'
            }`}
          >
            <VisibleText text={part} />
          </span>
        );
      })}
    </>
  );
}
