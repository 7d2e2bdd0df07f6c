import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { afterChunk, type ChunkTime, failed, NOTHING_YET, passesOn, type StreamedReply, timedOut } from '@/lib/reply-stream';

// The reply's stream folded chunk by chunk, without a model, a client or a database: what the turn
// would write (row and record) for each way a stream can go.

const text = (delta: string): UIMessageChunk => ({ type: 'text-delta', id: 't1', delta });
const finish: UIMessageChunk = { type: 'finish', finishReason: 'stop' };
const listening = (ms: number): ChunkTime => ({ ms, stopped: false });

/** Folds timed chunks the way the chat turn does, as the client listens throughout unless `stopped` says when it left. */
function fold(chunks: Array<[number, UIMessageChunk]>, stoppedFrom = Number.POSITIVE_INFINITY): StreamedReply {
  return chunks.reduce((reply, [ms, chunk]) => afterChunk(reply, chunk, { ms, stopped: ms >= stoppedFrom }), NOTHING_YET);
}

describe('afterChunk', () => {
  it('adds up the text and keeps the time of the first text that says something', () => {
    const reply = fold([
      [3, { type: 'start-step' }],
      [5, { type: 'text-start', id: 't1' }],
      [8, text('')],
      [41, text('The ferry ')],
      [60, text('leaves at nine.')],
      [62, { type: 'text-end', id: 't1' }],
    ]);
    expect(reply.text).toBe('The ferry leaves at nine.');
    expect(reply.firstTokenMs).toBe(41);
    // No finish came: the reply so far is incomplete, its text kept.
    expect(reply.status).toBe('incomplete');
    expect(reply.error).toBeUndefined();
  });

  it('reasoning, steps and data change nothing of what is written', () => {
    const quiet: UIMessageChunk[] = [
      { type: 'reasoning-delta', id: 'r1', delta: 'thinking about ferries' },
      { type: 'start-step' },
      { type: 'finish-step' },
      { type: 'data-turn', data: { note: 'anything' } },
    ];
    for (const chunk of quiet) expect(afterChunk(NOTHING_YET, chunk, listening(10))).toEqual(NOTHING_YET);
  });

  it('a finish completes the reply and is held back for after the final record', () => {
    const reply = fold([
      [12, text('Yes.')],
      [20, finish],
    ]);
    expect(reply).toEqual({ text: 'Yes.', status: 'complete', firstTokenMs: 12, finish });
    expect(passesOn(finish)).toBe(false);
    expect(passesOn(text('Yes.'))).toBe(true);
  });

  it('a reply whose client left before the finish stays incomplete, with the text it had', () => {
    const reply = fold(
      [
        [10, text('Half an ')],
        [30, text('answer')],
        [50, finish],
      ],
      40,
    );
    expect(reply.status).toBe('incomplete');
    expect(reply.text).toBe('Half an answer');
    expect(passesOn({ type: 'abort', reason: 'client left' })).toBe(false);
  });

  it("the model's error fails the reply, keeps its text and its words, and a later finish does not undo it", () => {
    const reply = fold([
      [15, text('Partly ')],
      [25, { type: 'error', errorText: 'The provider returned 502.' }],
      [26, finish],
    ]);
    expect(reply).toMatchObject({ text: 'Partly ', status: 'failed', error: 'The provider returned 502.', firstTokenMs: 15 });
    expect(passesOn({ type: 'error', errorText: 'The provider returned 502.' })).toBe(true);
  });

  it('never changes the reply it is given', () => {
    const before = Object.freeze({ ...NOTHING_YET, text: 'Kept' });
    const after = afterChunk(before, text(' as it was'), listening(5));
    expect(before.text).toBe('Kept');
    expect(after.text).toBe('Kept as it was');
    expect(after.firstTokenMs).toBe(5);
  });
});

describe('a stream that ends without saying so', () => {
  it('cut short by a deadline keeps the text so far as incomplete, or fails when nothing came', () => {
    const some = timedOut(fold([[900, text('The first half')]]), 'The model stopped answering.');
    expect(some).toMatchObject({ text: 'The first half', status: 'incomplete', error: 'The model stopped answering.' });
    expect(timedOut(NOTHING_YET, 'The model did not start answering.')).toMatchObject({ text: '', status: 'failed' });
  });

  it('when the model call throws, the reply fails with whatever text it had', () => {
    expect(failed(fold([[7, text('So far')]]), 'connection reset')).toMatchObject({
      text: 'So far',
      status: 'failed',
      error: 'connection reset',
    });
  });
});
