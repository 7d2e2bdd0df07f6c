import 'server-only';
import { and, eq, gt } from 'drizzle-orm';
import { getDb } from './client';
import { authUsers, authVerifications } from './schema';
import type { StaffSource } from './users';

/**
 * Staff invites waiting for their link to be used, one row per account in better-auth's
 * verification table (`staff-invite:<account id>`, the value saying where the invite came from).
 */
const key = (authUserId: string) => `staff-invite:${authUserId}`;

/** Records an invite for the account, replacing one it had. */
export async function putInvite(authUserId: string, via: StaffSource, expiresAt: Date): Promise<void> {
  await getDb().transaction(async (tx) => {
    await tx.delete(authVerifications).where(eq(authVerifications.identifier, key(authUserId)));
    await tx.insert(authVerifications).values({ id: crypto.randomUUID(), identifier: key(authUserId), value: via, expiresAt });
  });
}

/** Where the account's unexpired invite came from, if it has one. */
export async function pendingInvite(authUserId: string): Promise<StaffSource | undefined> {
  const [row] = await getDb()
    .select({ via: authVerifications.value })
    .from(authVerifications)
    .where(and(eq(authVerifications.identifier, key(authUserId)), gt(authVerifications.expiresAt, new Date())));
  return row?.via as StaffSource | undefined;
}

/** Removes the account's invite and says where it came from, if it was still good: an invite is used once. */
export async function takeInvite(authUserId: string): Promise<StaffSource | undefined> {
  const rows = await getDb()
    .delete(authVerifications)
    .where(eq(authVerifications.identifier, key(authUserId)))
    .returning({ via: authVerifications.value, expiresAt: authVerifications.expiresAt });
  const live = rows.find((row) => row.expiresAt > new Date());
  return live?.via as StaffSource | undefined;
}

/** The account's address is proven (a link mailed to it was used). */
export async function markEmailVerified(authUserId: string): Promise<void> {
  await getDb().update(authUsers).set({ emailVerified: true, updatedAt: new Date() }).where(eq(authUsers.id, authUserId));
}
