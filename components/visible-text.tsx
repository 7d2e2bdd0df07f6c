import { Fragment } from 'react';
import { splitInvisible } from '@/lib/shared/invisible-chars';

/** How a token looks, here and in markdown (components/markdown.tsx). */
export const INVISIBLE_TOKEN_CLASS = 'mx-px rounded-sm bg-warn-soft px-0.5 font-mono text-[0.85em] text-warn ring-1 ring-warn/30';

/**
 * Text with its invisible characters (tag characters, bidirectional controls, zero-width and other
 * format characters; lib/shared/invisible-chars.ts) shown as marked tokens, so a reader of the inspector or
 * the staff console sees what the model reads. A bidirectional control is replaced by its token, so
 * it cannot reorder what is displayed. Only the display changes: copying a token copies its label.
 */
export function VisibleText({ text }: { text: string }) {
  const pieces = splitInvisible(text);
  if (pieces.length === 1 && pieces[0].kind === 'text') return <>{text}</>;
  return (
    <>
      {pieces.map((piece, index) =>
        piece.kind === 'text' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
          <Fragment key={index}>{piece.text}</Fragment>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
          <span key={index} data-testid="invisible-char" title={piece.title} className={INVISIBLE_TOKEN_CLASS}>
            {piece.label}
          </span>
        ),
      )}
    </>
  );
}
