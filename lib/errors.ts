/**
 * What `lib/` and `db/` refuse, said in the domain's words. Code in `lib/` throws a DomainError; only
 * the route wrapper (`route()` in lib/http.ts) turns a code into an HTTP status, through one table.
 */
export type ErrorCode =
  | 'not_found'
  | 'no_session'
  | 'not_signed_in'
  | 'forbidden'
  | 'rate_limited'
  | 'too_many_guests'
  | 'duplicate'
  | 'stale_version'
  | 'exceeds_context_budget'
  | 'budget_too_small'
  | 'not_with_stored'
  | 'not_a_user_message'
  | 'nothing_to_regenerate'
  | 'import_in_progress'
  | 'not_a_reply'
  | 'imported_reply'
  | 'no_record'
  | 'failed_before_context'
  | 'email_too_long'
  | 'name_too_long'
  | 'invalid_image'
  | 'unknown_user'
  | 'invalid_item'
  | 'already_undone'
  | 'undo_expired'
  | 'undo_blocked';

/**
 * Marks a DomainError under a key every copy of this module shares: a production bundle may hold
 * two copies of the class, and `instanceof` against the other copy is false, which turned a 429 into a 500.
 */
const DOMAIN_ERROR = Symbol.for('memlens.DomainError');

export class DomainError extends Error {
  readonly [DOMAIN_ERROR] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /**
     * Machine-readable detail for the client, e.g. `{ factId }` of a duplicate; `retryAfterSeconds`
     * (a rate limit's) is sent as the Retry-After header instead.
     */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A DomainError from any copy of this module (see DOMAIN_ERROR). */
export function isDomainError(error: unknown): error is DomainError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[DOMAIN_ERROR] === true;
}

export const notFound = (what: string, id: string) => new DomainError('not_found', `${what} ${id} was not found.`);
