import { describe, expect, it } from 'vitest';
import { browser, member } from '@/tests/support/auth';
import { ownerWithData, staffRoutes, userRoutes } from '@/tests/support/routes';

/**
 * Every route that takes an id, tried by the wrong people: another user gets 404 (never 403, so
 * existence is not leaked), a user on a staff route 403, a signed-out caller 401. The owner's own
 * call succeeds, so a 404 is about access, not a bad id.
 */
describe('access to every route that takes an id', () => {
  it(`${userRoutes.length} user routes: another user 404, signed out 401, the owner 2xx`, async () => {
    const owner = await member();
    const stranger = await member();
    const ids = await ownerWithData(owner);
    for (const { route, call } of userRoutes) {
      expect((await call(stranger, ids)).status, `${route} for another user`).toBe(404);
      expect((await call(browser(), ids)).status, `${route} signed out`).toBe(401);
      expect((await call(owner, ids)).status, `${route} for the owner`).toBeLessThan(300);
    }
  });

  it(`${staffRoutes.length} staff routes: a user 403 (even on their own data), signed out 401, staff 2xx`, async () => {
    const owner = await member();
    const staff = await member({ staff: true });
    const ids = await ownerWithData(owner);
    for (const { route, call } of staffRoutes) {
      expect((await call(owner, ids)).status, `${route} for a user`).toBe(403);
      expect((await call(browser(), ids)).status, `${route} signed out`).toBe(401);
      expect((await call(staff, ids)).status, `${route} for staff`).toBeLessThan(300);
    }
  });
});
