import { Fragment } from 'react';
import { describeActorWithReason } from './describe-actor';
import { EraseIcon, PencilIcon } from './icons';
import type { MessageMark } from './types';
import { VisibleText } from './visible-text';

// The parts of a stored message that memlens forgot (a deleted fact's statement, or a reply's
// sentence that quoted it) or that the user corrected in memory. The message stays as written;
// the marks say what the model is no longer sent.

/** Who changed a part, in the member's words: "you", "memlens", or "staff (“reason”)". */
const whoChanged = (mark: Pick<MessageMark, 'by' | 'reason'>) => describeActorWithReason(mark.by, mark.reason);
/** "changed by staff (“reason”)" for a part staff changed, nothing otherwise (the member's own change needs no name). */
const byStaff = (mark: Pick<MessageMark, 'by' | 'reason'>) => (mark.by.startsWith('staff:') ? ` by ${whoChanged(mark)}` : '');

const forgottenTitle = (mark: MessageMark) =>
  `memlens forgot this${byStaff(mark) ? ` (deleted${byStaff(mark)})` : ''}; it is no longer sent to the model`;
const correctedTitle = (mark: MessageMark) =>
  `${byStaff(mark) ? `changed${byStaff(mark)}` : 'corrected'} in memory${mark.replacement ? `: ${mark.replacement}` : ''}`;

type Segment = { text: string; mark: MessageMark | null };

/** Splits the text at the marks (UTF-16 offsets); overlapping or out-of-range marks are clipped. */
function segmentsOf(text: string, marks: MessageMark[] | undefined): Segment[] {
  const usable = (marks ?? [])
    .map((m) => ({ ...m, start: Math.max(0, Math.min(text.length, m.start)), end: Math.max(0, Math.min(text.length, m.end)) }))
    .filter((m) => m.end > m.start)
    // Forgotten wins over corrected where both cover the same text: it is no longer sent at all.
    .sort((a, b) => a.start - b.start || (a.kind === b.kind ? b.end - a.end : a.kind === 'forgotten' ? -1 : 1));
  const segments: Segment[] = [];
  let at = 0;
  for (const mark of usable) {
    const start = Math.max(at, mark.start);
    if (mark.end <= start) continue;
    if (start > at) segments.push({ text: text.slice(at, start), mark: null });
    segments.push({ text: text.slice(start, mark.end), mark });
    at = mark.end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), mark: null });
  return segments;
}

/**
 * The punctuation right after a marked part goes before its label ("… black. [forgotten] My cat"),
 * so the label never stands between a sentence and its full stop.
 */
function withTrailingPunctuation(segments: Segment[]): Array<Segment & { after: string }> {
  const out: Array<Segment & { after: string }> = [];
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    const next = segments[i + 1];
    const punctuation = segment.mark && next && !next.mark ? (/^[.,;:!?…)\]"”’»。，；：！？、）」』]+/u.exec(next.text)?.[0] ?? '') : '';
    out.push({ ...segment, after: punctuation });
    if (punctuation) {
      segments[i + 1] = { ...next, text: next.text.slice(punctuation.length) };
    }
  }
  return out.filter((segment) => segment.mark || segment.text);
}

const pill =
  'ml-1 inline-block rounded-full border px-1.5 align-[0.1em] text-[10.5px] leading-4 font-medium tracking-normal whitespace-nowrap no-underline select-none';

/**
 * A user message's text with its forgotten parts struck through and its corrected parts underlined;
 * with `showInvisible` (the staff console), its invisible characters shown as tokens too.
 */
export function MarkedText({
  text,
  marks,
  showInvisible = false,
}: {
  text: string;
  marks: MessageMark[] | undefined;
  showInvisible?: boolean;
}) {
  const segments = withTrailingPunctuation(segmentsOf(text, marks));
  const shown = (part: string) => (showInvisible ? <VisibleText text={part} /> : part);
  return (
    <>
      {segments.map((segment, index) => {
        const { mark, after } = segment;
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
        if (!mark) return <Fragment key={index}>{shown(segment.text)}</Fragment>;
        if (mark.kind === 'forgotten') {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
            <Fragment key={index}>
              <del
                data-testid="forgotten-part"
                data-at={mark.at}
                title={forgottenTitle(mark)}
                className="text-muted decoration-muted/80 decoration-[1.5px]"
              >
                <span className="sr-only">[{forgottenTitle(mark)}: </span>
                {shown(segment.text)}
                <span className="sr-only">]</span>
              </del>
              {after}
              <span aria-hidden="true" title={forgottenTitle(mark)} className={`${pill} border-line bg-surface/70 text-muted`}>
                forgotten
              </span>
            </Fragment>
          );
        }
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in reading order, recomputed whole from it, never reordered
          <Fragment key={index}>
            <span
              data-testid="corrected-part"
              data-at={mark.at}
              title={correctedTitle(mark)}
              className="underline decoration-accent/70 decoration-dotted decoration-2 underline-offset-4"
            >
              <span className="sr-only">[{correctedTitle(mark)}; you first said: </span>
              {shown(segment.text)}
              <span className="sr-only">]</span>
            </span>
            {after}
            <span aria-hidden="true" title={correctedTitle(mark)} className={`${pill} border-accent/30 bg-accent-soft text-accent`}>
              corrected
            </span>
          </Fragment>
        );
      })}
    </>
  );
}

const quoted = (texts: string[]) =>
  texts.map((text, index) => (
    <Fragment key={text}>
      {index > 0 ? '; ' : null}
      <span className="text-fg">“{text}”</span>
    </Fragment>
  ));

/** The corrections of a user message, spelled out under it (a tooltip cannot be read on a phone), staff's named as staff's. */
export function CorrectionsCaption({ marks }: { marks: MessageMark[] | undefined }) {
  const corrected = (marks ?? []).filter((m) => m.kind === 'corrected' && m.replacement);
  if (corrected.length === 0) return null;
  const groups = new Map<string, string[]>();
  for (const mark of corrected) {
    const label = byStaff(mark) ? `Changed${byStaff(mark)} in memory:` : 'Corrected in memory:';
    const texts = groups.get(label) ?? [];
    if (!texts.includes(mark.replacement!)) texts.push(mark.replacement!);
    groups.set(label, texts);
  }
  return (
    <p data-testid="message-corrections" className="max-w-[85%] text-right text-xs leading-5 text-muted">
      {[...groups].map(([label, texts], index) => (
        <Fragment key={label}>
          {index > 0 ? ' ' : null}
          {label} {quoted(texts)}
        </Fragment>
      ))}
    </p>
  );
}

/** Under a reply with marks: the reply stays as written, but part of it is no longer sent as it was. */
export function ReplyMarksNote({ text, marks }: { text: string; marks: MessageMark[] | undefined }) {
  const segments = segmentsOf(text, marks).filter((s) => s.mark);
  if (segments.length === 0) return null;
  const forgotten = segments.some((s) => s.mark!.kind === 'forgotten');
  // Forgotten from its first visible character to its last (as after "forget everything").
  const whole = segments.length === 1 && segments[0].mark!.kind === 'forgotten' && segments[0].text.trim() === text.trim();
  const corrections = [
    ...new Set(segments.flatMap((s) => (s.mark!.kind === 'corrected' && s.mark!.replacement ? [s.mark!.replacement] : []))),
  ];
  const corrected = segments.some((s) => s.mark!.kind === 'corrected');
  const subject = forgotten ? 'It also mentions' : 'Part of this reply mentions';
  // "something you corrected", or "something changed by staff (“reason”)" when staff made a correction.
  const correctedMark = segments.find((s) => s.mark!.kind === 'corrected')?.mark;
  const what = correctedMark && byStaff(correctedMark) ? `something changed${byStaff(correctedMark)}` : 'something you corrected';
  const forgottenMark = segments.find((s) => s.mark!.kind === 'forgotten')?.mark;
  const forgottenBy = forgottenMark ? byStaff(forgottenMark) : '';
  const excerpt = segments.map((s) => s.text.trim()).join(' … ');
  const Icon = forgotten ? EraseIcon : PencilIcon;
  return (
    <p
      data-testid="message-marks-note"
      data-kinds={[...new Set(segments.map((s) => s.mark!.kind))].join(' ')}
      title={`${forgotten ? 'Forgotten' : 'Corrected'}: ${excerpt.length > 240 ? `${excerpt.slice(0, 239)}…` : excerpt}`}
      className="mt-2 flex items-start gap-1.5 rounded-lg border border-line bg-subtle/60 px-2.5 py-1.5 text-xs leading-5 text-muted"
    >
      <Icon width={13} height={13} className="mt-[3px] shrink-0" />
      <span className="min-w-0">
        {forgotten
          ? `${whole ? 'This reply was' : 'Part of this reply was'} forgotten${forgottenBy ? ` (deleted${forgottenBy})` : ''} and is no longer sent to the model.`
          : null}
        {forgotten && corrected ? ' ' : null}
        {corrected && corrections.length > 0 ? (
          <>
            {subject} {what}; memlens now remembers {quoted(corrections)}
            {/[.!?。！？]$/u.test(corrections.at(-1)!) ? null : '.'}
          </>
        ) : corrected ? (
          `${subject} ${what} in memory.`
        ) : null}
      </span>
    </p>
  );
}
