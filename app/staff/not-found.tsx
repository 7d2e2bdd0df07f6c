import Link from 'next/link';

/** An address in the console that names nothing (a malformed id, or a page that does not exist). */
export default function StaffNotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center" data-testid="staff-not-found">
      <p className="text-sm font-medium text-accent">404</p>
      <h1 className="mt-2 text-xl font-semibold tracking-tight">Nothing here</h1>
      <p className="mt-3 text-[15px] leading-7 text-muted">
        This address does not name a user, conversation or page of the staff console. Ids are full UUIDs, as the audit log and the user
        pages show them.
      </p>
      <Link
        href="/staff"
        className="mt-6 inline-flex rounded-xl bg-accent px-4 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover"
      >
        Find a user
      </Link>
    </div>
  );
}
