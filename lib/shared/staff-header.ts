/**
 * The header the staff console sends with every call, so the server can tell a call made by the
 * console itself from a cross-site one (lib/csrf.ts refuses staff calls without it).
 */
export const STAFF_REQUEST_HEADER = 'x-memlens-staff';

/**
 * The view a staff read belongs to (a page, or one turn record opened on it): the reads of one view
 * are audited as one entry (lib/staff.ts).
 */
export const STAFF_VIEW_HEADER = 'x-memlens-staff-view';
