/**
 * The header the staff console sends with every call, so the server can tell a call made by the
 * console itself from a cross-site one (lib/csrf.ts refuses staff calls without it).
 */
export const STAFF_REQUEST_HEADER = 'x-memlens-staff';
