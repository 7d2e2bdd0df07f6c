import { Badge } from '../ui/badge';

export const ROLE_HELP = (
  <>
    <p>
      <b>guest</b>: a browser session that has not signed up (a cookie). <b>member</b>: an account with an email and password; a guest who
      signs up becomes the member and keeps their conversations and memory.
    </p>
    <p>
      <b>staff</b> may read any user&apos;s data here; every such read and every edit is written to the audit log. <b>user</b> sees only
      their own.
    </p>
  </>
);

export function AccountBadges({ user }: { user: { kind: 'guest' | 'member'; role: 'user' | 'staff' } }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge
        tone={user.kind === 'member' ? 'accent' : 'neutral'}
        title={user.kind === 'member' ? 'Signed up with email and password' : 'A browser session that has not signed up'}
      >
        {user.kind}
      </Badge>
      {user.role === 'staff' ? (
        <Badge tone="warn" title="Can use the staff console">
          staff
        </Badge>
      ) : null}
    </span>
  );
}
