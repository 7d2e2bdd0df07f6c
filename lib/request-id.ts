/** A request id worth keeping: a short token such as a UUID or a proxy's trace id, nothing that could forge a log line or bloat a row. */
const REQUEST_ID_SHAPE = /^[A-Za-z0-9._:-]{1,64}$/;

/** The X-Request-Id the client or a proxy sent, when it has that shape; otherwise none. */
export function sentRequestId(headers: Headers): string | undefined {
  const id = headers.get('x-request-id');
  return id !== null && REQUEST_ID_SHAPE.test(id) ? id : undefined;
}
