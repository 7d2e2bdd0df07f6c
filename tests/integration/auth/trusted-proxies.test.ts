import { getIP } from '@better-auth/core/utils/ip';
import { afterEach, describe, expect, it } from 'vitest';
import { getAuth } from '@/lib/auth';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { getConfig, resetConfigForTests } from '@/lib/config';
import { clientAddressOf, parseTrustedProxies, peerIsTrusted, type TrustedProxies, trustOf } from '@/lib/trusted-proxies';
import { setEnv } from '@/tests/support/app';

const request = (peer: string, forwardedFor?: string) =>
  ({
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    socket: { remoteAddress: peer },
  }) as unknown as Parameters<typeof clientAddressOf>[0];

const NONE: TrustedProxies = { hops: 0 };
const ONE: TrustedProxies = { hops: 1 };
const TWO: TrustedProxies = { hops: 2 };
const PRIVATE: TrustedProxies = { ranges: ['10.0.0.0/8', '127.0.0.1'] };

describe('the client address (TRUSTED_PROXIES)', () => {
  it.each<[string, TrustedProxies, string, string | undefined, string]>([
    ['none trusted: the peer, whatever X-Forwarded-For says', NONE, '203.0.113.5', '198.51.100.7', '203.0.113.5'],
    ['none trusted, no header', NONE, '203.0.113.5', undefined, '203.0.113.5'],
    ['none trusted: an IPv4-mapped peer is told as IPv4', NONE, '::ffff:127.0.0.1', '198.51.100.7', '127.0.0.1'],
    ['none trusted: an IPv6 peer', NONE, '2001:db8::1', '198.51.100.7', '2001:db8::1'],
    ['one hop: the entry the proxy added, not what the client wrote before it', ONE, '127.0.0.1', '6.6.6.6, 198.51.100.7', '198.51.100.7'],
    ['one hop, no header: the peer', ONE, '127.0.0.1', undefined, '127.0.0.1'],
    ['one hop: an IPv4-mapped entry is told as IPv4', ONE, '127.0.0.1', '::ffff:198.51.100.7', '198.51.100.7'],
    ['one hop: an IPv6 entry, written in capitals', ONE, '::1', '2001:DB8:0:0::7', '2001:db8::7'],
    ['one hop: an entry that is not an address falls back to the proxy', ONE, '127.0.0.1', 'not-an-address', '127.0.0.1'],
    ['one hop: a decimal "address" is not one', ONE, '127.0.0.1', '2130706433', '127.0.0.1'],
    ['two hops', TWO, '10.0.0.1', '6.6.6.6, 198.51.100.7, 10.0.0.2', '198.51.100.7'],
    ['two hops, one header entry only: the first entry', TWO, '10.0.0.1', '198.51.100.7', '198.51.100.7'],
    ['ranges: trusted hops are walked past from the right', PRIVATE, '127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.2.3', '198.51.100.7'],
    ['ranges: an untrusted peer is the client, its header ignored', PRIVATE, '192.0.2.9', '198.51.100.7', '192.0.2.9'],
    ['ranges: an IPv4-mapped peer matches an IPv4 range', PRIVATE, '::ffff:10.9.9.9', '198.51.100.7', '198.51.100.7'],
    ['ranges: every hop trusted, the leftmost is the client', PRIVATE, '127.0.0.1', '10.0.0.3, 10.0.0.2', '10.0.0.3'],
    ['IPv6 ranges', { ranges: ['2001:db8::/32'] }, '2001:db8::1', '2a00:1450::99, 2001:db8::2', '2a00:1450::99'],
    ['loopback by name', { ranges: ['loopback'] }, '::1', '198.51.100.7', '198.51.100.7'],
  ])('%s', (_, setting, peer, forwardedFor, expected) => {
    expect(clientAddressOf(request(peer, forwardedFor), trustOf(setting))).toBe(expected);
  });

  it("better-auth's limits key on the same address, never on what X-Forwarded-For claims", () => {
    const headers = new Headers({ 'x-forwarded-for': '6.6.6.6', [CLIENT_ADDRESS_HEADER]: '198.51.100.7' });
    expect(getIP(headers, getAuth().options)).toBe('198.51.100.7');
  });

  it('believes forwarded headers only from a trusted peer', () => {
    expect(peerIsTrusted(request('203.0.113.5'), trustOf(NONE))).toBe(false);
    expect(peerIsTrusted(request('127.0.0.1'), trustOf(ONE))).toBe(true);
    expect(peerIsTrusted(request('::ffff:10.0.0.1'), trustOf(PRIVATE))).toBe(true);
    expect(peerIsTrusted(request('192.0.2.9'), trustOf(PRIVATE))).toBe(false);
  });
});

describe('TRUSTED_PROXIES', () => {
  afterEach(() => setEnv({ TRUSTED_PROXIES: undefined }));

  it.each<[string, TrustedProxies]>([
    ['', { hops: 0 }],
    ['  ', { hops: 0 }],
    ['1', { hops: 1 }],
    ['10.0.0.0/8,127.0.0.1', { ranges: ['10.0.0.0/8', '127.0.0.1'] }],
    [' 10.0.0.0/8 , ::1 ', { ranges: ['10.0.0.0/8', '::1'] }],
    ['loopback, uniquelocal', { ranges: ['loopback', 'uniquelocal'] }],
  ])('reads %j', (value, expected) => {
    expect(parseTrustedProxies(value)).toEqual(expected);
  });

  it.each(['proxy.internal', '10.0.0.0/33', '300.1.1.1', '33', '-1', '1.5'])('refuses %j, naming it', (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(value);
  });

  it('is checked with the rest of the configuration', () => {
    setEnv({ TRUSTED_PROXIES: 'proxy.internal' });
    expect(() => getConfig()).toThrow(/proxy\.internal[\s\S]*TRUSTED_PROXIES/);
    setEnv({ TRUSTED_PROXIES: '1' });
    expect(getConfig().TRUSTED_PROXIES).toEqual({ hops: 1 });
    resetConfigForTests();
  });
});
