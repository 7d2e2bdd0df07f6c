import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET as staffUser } from '@/app/api/staff/users/[id]/route';
import { getSql } from '@/db/client';
import { logError } from '@/lib/log';
import { params } from '@/tests/support/app';
import { member } from '@/tests/support/auth';

// X-Request-Id comes from whoever sent the request: it is stored in the audit log and printed in the
// server log only when it is a short token of safe characters; otherwise the request gets a new id.
const HOSTILE = ['<script>alert(1)</script>', 'x'.repeat(65), 'id with spaces', "' or 1=1 --", 'caf\u00e9', '{"forged":"entry"}', ''];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.restoreAllMocks());

describe('X-Request-Id', () => {
  it('a staff action with a hostile id stores a generated one; a safe id is kept', async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    const readAs = async (requestId: string) => {
      const response = await staffUser(
        staff.request(`/api/staff/users/${userId}`, { headers: { 'x-request-id': requestId } }),
        params({ id: userId }),
      );
      expect(response.status).toBe(200);
      const [entry] =
        await getSql()`select request_id from audit_log where target_user_id = ${userId} and actor_role = 'staff' order by id desc limit 1`;
      return entry.request_id as string;
    };
    for (const hostile of HOSTILE) {
      const stored = await readAs(hostile);
      expect(stored).toMatch(UUID);
    }
    expect(await readAs('req-7f3a:1.b_c')).toBe('req-7f3a:1.b_c');
  });

  it('the error log carries a safe id and leaves a hostile one out', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const request = (id: string) => new Request('http://localhost/api/facts', { headers: { 'x-request-id': id } });
    logError('failed', new Error('boom'), request('req-42'));
    logError('failed', new Error('boom'), request('{"forged":"entry"} <script>'));
    const [safe, hostile] = consoleError.mock.calls.map((args) => args.join(' '));
    expect(safe).toContain('"requestId":"req-42"');
    expect(hostile).not.toContain('forged');
    expect(hostile).not.toContain('requestId');
  });
});
