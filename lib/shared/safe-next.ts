/**
 * Where to go after signing in (`/login?next=…`): a path of this site, or null. A value holding a
 * control character or a backslash is refused outright: URL parsing drops tab and newline and reads
 * `\` as `/`, so `/\t/evil.example/` or `/\evil.example` would lead to another host. What is left
 * must resolve to the page's own origin; the path returned is the resolved one.
 */
export function sameOriginPath(value: string | null, origin: string): string | null {
  if (!value?.startsWith('/') || /[\p{Cc}\\]/u.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
