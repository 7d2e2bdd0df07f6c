import { vi } from 'vitest';

/**
 * Moves the process's clock `ms` ahead at once, instead of sleeping through a real window: the rate
 * limiter reads its windows from `Date`, so only `Date` is faked, and it keeps ticking from there.
 * `vi.useRealTimers()` puts the real clock back.
 */
export function passTime(ms: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(now + ms);
}
