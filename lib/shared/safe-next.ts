/**
 * Where to go after signing in (`/login?next=…`): a path of this site, or null. A value holding a
 * control character or a backslash is refused outright: URL parsing drops tab and newline and reads
 * `\` as `/`, so `/\t/evil.example/` or `/\evil.example` would lead to another host. What is left
 * must resolve to the page's own origin, and the resolved path must start with one slash: dot
 * segments resolve away (`/..//evil.example`, `/%2e%2e//evil.example` become `//evil.example`), and a
 * path starting `//` is read by the browser as another host. The path returned is the resolved one.
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
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : null;
}
