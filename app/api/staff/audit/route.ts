import { z } from 'zod';
import { listAudit } from '@/db/audit';
import { parseInput, route } from '@/lib/http';
import { requireStaff } from '@/lib/session';

const filterSchema = z.object({
  actorUserId: z.uuid().optional(),
  targetUserId: z.uuid().optional(),
  objectType: z.string().max(40).optional(),
  action: z.string().max(40).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  format: z.enum(['json', 'jsonl']).default('json'),
});

/** GET /api/staff/audit?targetUserId=&objectType=&action=&from=&to=&before=&format=jsonl: the audit log, newest first (staff only). */
export const GET = route(async (request: Request) => {
  await requireStaff(request);
  const { limit, format, ...filter } = parseInput(Object.fromEntries(new URL(request.url).searchParams), filterSchema);
  const entries = await listAudit(filter, format === 'jsonl' ? Math.max(limit, 1000) : limit);
  if (format === 'jsonl') {
    return new Response(entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : ''), {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': 'attachment; filename="memlens-audit.jsonl"' },
    });
  }
  return Response.json({ entries });
});
