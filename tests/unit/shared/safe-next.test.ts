import { describe, expect, it } from 'vitest';
import { sameOriginPath } from '@/lib/shared/safe-next';

// `/login?next=…` after sign-in: URLSearchParams has already decoded the value once.
const ORIGIN = 'http://127.0.0.1:3000';

describe('where sign-in leads (?next=)', () => {
  it.each([
    ['/staff', '/staff'],
    ['/staff/users?page=2#top', '/staff/users?page=2#top'],
    ['/c/5f0c1f2e-0000-4000-8000-000000000000', '/c/5f0c1f2e-0000-4000-8000-000000000000'],
    ['/a/../staff', '/staff'],
    ['/%2F/evil.host/', '/%2F/evil.host/'],
    ['/%09/evil.host/', '/%09/evil.host/'],
    ['/ /evil.host', '/%20/evil.host'],
    ['/%2f/evil.host/', '/%2f/evil.host/'],
    ['/%5c/evil.host/', '/%5c/evil.host/'],
    ['/..%2f/evil.host', '/..%2f/evil.host'],
    ['/./staff', '/staff'],
    ['/%2e%2e/staff', '/staff'],
    ['/staff?next=//evil.host#//evil.host', '/staff?next=//evil.host#//evil.host'],
  ])('keeps the same-origin path %j as %j', (value, expected) => {
    expect(sameOriginPath(value, ORIGIN)).toBe(expected);
  });

  it.each([
    ['no value', null],
    ['empty', ''],
    ['a tab after the slash (/%09/evil.host/ decoded)', '/\t/evil.host/'],
    ['a newline after the slash', '/\n/evil.host/'],
    ['a carriage return', '/\r/evil.host'],
    ['a leading tab', '\t//evil.host'],
    ['NUL', '/\u0000/evil.host'],
    ['DEL', '/\u007F/evil.host'],
    ['a C1 control', '/\u0085/evil.host'],
    ['a backslash after the slash', '/\\evil.host'],
    ['two backslashes', '\\\\evil.host'],
    ['a backslash later on', '/staff\\..\\..\\evil'],
    ['protocol-relative', '//evil.host/'],
    ['protocol-relative with a path', '//evil.host/staff'],
    ['an absolute URL', 'https://evil.host/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'staff'],
    ['a scheme-relative with userinfo', '//127.0.0.1:3000@evil.host/'],
    ['another port of the same host', '//127.0.0.1:4000/'],
    // Dot segments that resolve to a path starting `//`, which the browser reads as another host.
    ['a dot-dot segment before two slashes', '/..//evil.test/owned'],
    ['an encoded dot-dot segment (%2e%2e)', '/%2e%2e//evil.test/owned'],
    ['a half-encoded dot-dot segment (.%2e)', '/.%2e//evil.test/owned'],
    ['a half-encoded dot-dot segment (%2e.)', '/%2e.//evil.test/owned'],
    ['an upper-case encoded dot-dot segment (%2E%2E)', '/%2E%2E//evil.test/owned'],
    ['a mixed-case encoded dot-dot segment (.%2E)', '/.%2E//evil.test/owned'],
    ['a dot segment before two slashes', '/.//evil.test/owned'],
    ['an encoded dot segment before two slashes', '/%2e//evil.test/owned'],
    ['dot segments after a path', '/staff/../..//evil.test/owned'],
    ['a dot and a dot-dot segment', '/./%2e%2e//evil.test/owned'],
    ['three slashes', '///evil.test/owned'],
    ['a dot-dot segment and a backslash', '/..\\evil.test/owned'],
    ['a dot-dot segment and a tab between the slashes', '/../\t/evil.test/owned'],
    ['a dot-dot segment and a newline between the slashes', '/..//\nevil.test/owned'],
    ['a javascript: URL with an encoded newline', 'javascript://%0aalert(1)'],
    ['an upper-case JAVASCRIPT: URL', 'JAVASCRIPT:alert(1)'],
  ])('refuses %s', (_, value) => {
    expect(sameOriginPath(value, ORIGIN)).toBeNull();
  });
});
