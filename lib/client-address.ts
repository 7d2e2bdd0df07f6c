/** The client's address as the nearest proxy reports it (x-forwarded-for), else unknown. */
export function clientAddress(headers: Headers): string | null {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || headers.get('x-real-ip') || null;
}
