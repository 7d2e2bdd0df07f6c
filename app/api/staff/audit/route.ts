import { z } from 'zod';
import { otherMethods, parseInput, route } from '@/lib/http';
import { auditFilter, auditPage, everyAuditEntry } from '@/lib/services/audit-log';
import { requireStaff } from '@/lib/session';
import { isUuid } from '@/lib/shared/uuid';
import { queryTime, text } from '@/lib/validation';

/** A user as staff name one: their id, or their email. */
const userRef = text()
  .trim()
  .max(254)
  .refine((value) => isUuid(value) || z.email().safeParse(value).success, 'must be a user id or an email address');

const filterSchema = z.object({
  actorUserId: userRef.optional(),
  targetUserId: userRef.optional(),
  objectType: text().max(40).optional(),
  action: text().max(40).optional(),
  from: queryTime.optional(),
  to: queryTime.optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  format: z.enum(['json', 'jsonl']).default('json'),
});

/**
 * GET /api/staff/audit?actorUserId=&targetUserId=&objectType=&action=&from=&to=&before=&format=jsonl: the audit log,
 * newest first (staff only). A user is named by id or email (an email no user has is a 400);
 * `action=changes` leaves out staff reads; the JSON Lines export holds every matching entry.
 */
export const GET = route(async (request: Request) => {
  await requireStaff(request);
  const { limit, format, ...query } = parseInput(Object.fromEntries(new URL(request.url).searchParams), filterSchema);
  const filter = await auditFilter(query);
  if (format === 'jsonl') {
    // The export holds every matching entry, however many: streamed a page at a time.
    const encoder = new TextEncoder();
    const entries = everyAuditEntry(filter);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await entries.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      },
      async cancel() {
        await entries.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': 'attachment; filename="memlens-audit.jsonl"',
      },
    });
  }
  return Response.json({ entries: await auditPage(filter, limit) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
