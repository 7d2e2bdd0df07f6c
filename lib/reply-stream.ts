import type { UIMessageChunk } from 'ai';

/**
 * A chat reply as its stream has brought it so far: everything the turn writes once the stream
 * ends (the reply's row, the end of its turn record). Each chunk of the model's stream gives the
 * next one (`afterChunk`); the stream can also end without a chunk saying so (`timedOut`, `failed`).
 * Pure: the loop that reads the model gives the time and whether the client has gone.
 */
export type StreamedReply = {
  text: string;
  /** How the reply ends if the stream stops now: incomplete (its text kept) until a finish makes it complete or an error failed. */
  status: 'complete' | 'incomplete' | 'failed';
  /** Why it failed or was cut short, in words the user is shown. */
  error?: string;
  /** Time to first token: ms from the start of generation to the first text; null until some comes. */
  firstTokenMs: number | null;
  /** The model's finish chunk, held back: the client gets it after the final turn record. */
  finish: UIMessageChunk | null;
};

export const NOTHING_YET: StreamedReply = { text: '', status: 'incomplete', firstTokenMs: null, finish: null };

/** When a chunk comes: ms since generation started, and whether the client has gone. */
export type ChunkTime = { ms: number; stopped: boolean };

export function afterChunk(reply: StreamedReply, chunk: UIMessageChunk, at: ChunkTime): StreamedReply {
  switch (chunk.type) {
    case 'text-delta':
      return { ...reply, text: reply.text + chunk.delta, firstTokenMs: reply.firstTokenMs ?? (chunk.delta === '' ? null : at.ms) };
    case 'error':
      return failed(reply, chunk.errorText);
    case 'finish':
      // A reply the client left stays incomplete even when the model finished it: nobody saw the end.
      return { ...reply, finish: chunk, status: reply.status === 'failed' || at.stopped ? reply.status : 'complete' };
    default:
      return reply;
  }
}

/**
 * Whether a chunk goes on to the client as it comes. The finish waits for the final turn record; an
 * abort is no news to the client: it left, or a deadline passed, which it is told as an error.
 */
export const passesOn = (chunk: UIMessageChunk): boolean => chunk.type !== 'finish' && chunk.type !== 'abort';

/** A deadline passed: the text so far is kept, as an incomplete reply (failed when there is none). */
export function timedOut(reply: StreamedReply, message: string): StreamedReply {
  return { ...reply, status: reply.text ? 'incomplete' : 'failed', error: message };
}

/** The model failed: the reply fails with its text so far. */
export function failed(reply: StreamedReply, message: string): StreamedReply {
  return { ...reply, status: 'failed', error: message };
}
