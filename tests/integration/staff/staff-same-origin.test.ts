import { NextRequest } from 'next/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as auditEntry } from '@/app/api/staff/audit/[id]/route';
import { GET as auditLog } from '@/app/api/staff/audit/route';
import { GET as staffConversation } from '@/app/api/staff/conversations/[id]/route';
import { GET as staffJobs } from '@/app/api/staff/jobs/route';
import { GET as staffTurn } from '@/app/api/staff/messages/[id]/context/route';
import { GET as staffReplay } from '@/app/api/staff/messages/[id]/replay/route';
import { GET as staffMessage } from '@/app/api/staff/messages/[id]/route';
import { GET as staffUser } from '@/app/api/staff/users/[id]/route';
import { GET as staffUsers } from '@/app/api/staff/users/route';
import { getSql } from '@/db/client';
import { STAFF_REQUEST_HEADER } from '@/lib/shared/staff-header';
import { proxy } from '@/proxy';
import { params } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { type Ids, ownerWithData } from '@/tests/support/routes';

/**
 * Staff reads are audited in the staff member's name, so a read another site makes the staff
 * member's browser send (an `<img src="https://app/api/staff/users/…">`, a `<script src>`, a link)
 * would write an audit entry the staff member never chose to. Every staff request must show it
 * came from the app itself: `Sec-Fetch-Site: same-origin` (or `none`, typed in), or, from a browser
 * that sends no Sec-Fetch-Site, the console's own request header, which no `<img>`, `<script>` or
 * form can send. Each request goes through proxy.ts and then, if it lets it through, the handler,
 * as the server does.
 */

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
type Read = { path: (ids: Ids) => string; handler: Handler; id?: (ids: Ids) => string };

const reads: Read[] = [
  { path: (i) => `/api/staff/users?q=${i.user}`, handler: staffUsers as Handler },
  { path: (i) => `/api/staff/users/${i.user}`, handler: staffUser, id: (i) => i.user },
  { path: (i) => `/api/staff/conversations/${i.conversation}`, handler: staffConversation, id: (i) => i.conversation },
  { path: (i) => `/api/staff/messages/${i.reply}`, handler: staffMessage, id: (i) => i.reply },
  { path: (i) => `/api/staff/messages/${i.reply}/context`, handler: staffTurn, id: (i) => i.reply },
  { path: (i) => `/api/staff/messages/${i.reply}/replay`, handler: staffReplay, id: (i) => i.reply },
  { path: (i) => `/api/staff/jobs?userId=${i.user}`, handler: staffJobs as Handler },
  { path: (i) => `/api/staff/audit?targetUserId=${i.user}`, handler: auditLog as Handler },
  { path: (i) => `/api/staff/audit/${i.audit}`, handler: auditEntry, id: (i) => i.audit },
];

let staff: Awaited<ReturnType<typeof member>>;
let staffId: string;
let ids: Ids;

beforeAll(async () => {
  staff = await member({ staff: true });
  [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
  ids = await ownerWithData(await member());
});

/** A GET (or HEAD) with the staff member's cookies and the given browser headers, through proxy.ts, then the handler. */
async function served(read: Read, headers: Record<string, string>, method = 'GET'): Promise<Response> {
  const url = `http://127.0.0.1:3000${read.path(ids)}`;
  const request = new NextRequest(url, {
    method,
    headers: { host: '127.0.0.1:3000', cookie: staff.request('/').headers.get('cookie')!, ...headers },
  });
  const answer = proxy(request);
  if (answer.headers.get('x-middleware-next') !== '1') return answer;
  return read.handler(new Request(url, { method, headers: request.headers }), params({ id: read.id?.(ids) ?? '' }));
}

const auditRowsByStaff = async () =>
  (await getSql()`select count(*)::int as n from audit_log where actor_user_id = ${staffId}`)[0].n as number;

describe('staff reads answer only the app itself', () => {
  it.each<[string, Record<string, string>]>([
    ['an <img> or <script> on another site (Sec-Fetch-Site: cross-site)', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }],
    ['another port of the same host (Sec-Fetch-Site: same-site)', { 'sec-fetch-site': 'same-site' }],
    ["a browser that sends no Sec-Fetch-Site, without the console's header", {}],
    ["a cross-site request that names the header's value wrongly", { [STAFF_REQUEST_HEADER]: '0' }],
  ])('refuses %s with 403 cross_origin, and writes no audit entry', async (_, headers) => {
    const before = await auditRowsByStaff();
    for (const read of reads) {
      for (const method of ['GET', 'HEAD']) {
        const response = await served(read, headers, method);
        expect(response.status, `${method} ${read.path(ids)}`).toBe(403);
        if (method === 'GET') expect((await response.json()).error.code).toBe('cross_origin');
      }
    }
    expect(await auditRowsByStaff()).toBe(before);
  });

  it.each<[string, Record<string, string>]>([
    [
      "the console's fetch (Sec-Fetch-Site: same-origin, with its header)",
      { 'sec-fetch-site': 'same-origin', [STAFF_REQUEST_HEADER]: '1' },
    ],
    ['a link in the console, e.g. the audit export (same-origin, no header)', { 'sec-fetch-site': 'same-origin' }],
    ['an address typed in (Sec-Fetch-Site: none)', { 'sec-fetch-site': 'none' }],
    ['the console in a browser that sends no Sec-Fetch-Site', { [STAFF_REQUEST_HEADER]: '1' }],
  ])('answers %s, and audits the reads', async (_, headers) => {
    const before = await auditRowsByStaff();
    for (const read of reads) expect((await served(read, headers)).status, read.path(ids)).toBe(200);
    // The search, users/:id, conversations/:id, messages/:id, its context and replay, a user's jobs: each an audited read.
    expect(await auditRowsByStaff()).toBe(before + 7);
  });
});
