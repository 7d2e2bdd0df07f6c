import { DomainError } from '@/lib/errors';
import { httpErrorOf } from '@/lib/http';

/**
 * A domain error as `route()` answers it to the client: status, code, message and headers (names in
 * lower case). For lib/ calls tested without a route: `await expect(call().catch(answered)).resolves.toMatchObject(...)`.
 */
export function answered(error: unknown) {
  if (!(error instanceof DomainError)) throw error;
  const { status, code, message, headers } = httpErrorOf(error);
  return { status, code, message, headers: Object.fromEntries(new Headers(headers)) };
}
