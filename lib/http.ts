import { z } from 'zod';

/** An error a route handler turns into a 4xx JSON body: `{ error: { code, message } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what: string, id: string) => new HttpError(404, 'not_found', `${what} ${id} was not found.`);

export function errorResponse(error: HttpError): Response {
  return Response.json(
    { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } },
    { status: error.status, headers: error.headers },
  );
}

/** Wraps a route handler: HttpErrors become their JSON response; anything else is a logged 500. */
export function route<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error);
      console.error('[memlens] unhandled error in route', error);
      return errorResponse(new HttpError(500, 'internal_error', 'Something went wrong on the server.'));
    }
  };
}

/** Parses and validates a JSON body; says which field is wrong. */
export async function readJson<T>(request: Request, schema: z.ZodType<T>, options: { emptyAs?: unknown } = {}): Promise<T> {
  return parseInput(await readJsonBody(request, options), schema);
}

export async function readJsonBody(request: Request, options: { emptyAs?: unknown } = {}): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '' && 'emptyAs' in options) return options.emptyAs;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

export function parseInput<T>(input: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'body';
  throw new HttpError(400, issueCode(issue), `${where}: ${issue.message}`, parsed.error.issues);
}

function issueCode(issue: z.core.$ZodIssue): string {
  // Refinements name their own code: `refine(check, { params: { code: 'empty' } })`.
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return issue.params.code;
  if (issue.code === 'too_big') return 'too_large';
  if (issue.code === 'too_small') return 'empty';
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'missing';
  return 'invalid';
}

export const uuidParam = (value: string, what: string) => {
  if (!z.uuid().safeParse(value).success) throw notFound(what, value);
  return value;
};
