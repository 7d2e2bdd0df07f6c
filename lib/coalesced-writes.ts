/**
 * A streamed response's bytes as fewer, larger writes. The reply's stream makes one SSE frame per event
 * (its start, the turn record, each batch of text, the end's four or five frames at once), and each frame
 * that reaches the server's socket is a write of its own: a system call each. Frames made within one turn of
 * the event loop go out together, and no frame waits longer than that turn.
 */
export function coalescedWrites(): TransformStream<Uint8Array, Uint8Array> {
  let waiting: Uint8Array[] = [];
  let sendScheduled = false;
  let ended = false;
  const send = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const frames = waiting;
    waiting = [];
    if (frames.length > 0) controller.enqueue(frames.length === 1 ? frames[0] : Buffer.concat(frames));
  };
  return new TransformStream({
    transform(chunk, controller) {
      waiting.push(chunk);
      if (sendScheduled) return;
      sendScheduled = true;
      setImmediate(() => {
        sendScheduled = false;
        // After the end (flush sent the rest) or once the reader has gone (the stream errored), nothing is sent.
        if (!ended && controller.desiredSize !== null) send(controller);
      });
    },
    flush(controller) {
      ended = true;
      send(controller);
    },
  });
}
