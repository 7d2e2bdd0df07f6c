import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/**
 * Which hops in front of the app are believed when they say who the client is (TRUSTED_PROXIES):
 * none (the socket's peer is the client), the nearest `hops` proxies, or the proxies whose
 * addresses fall in `ranges` (addresses, CIDR ranges, or proxy-addr's names `loopback`,
 * `linklocal`, `uniquelocal`). The same rules as Express's `trust proxy`, by the same library.
 */
export type TrustedProxies = { hops: number } | { ranges: string[] };

/** A trust decision for one hop: `index` 0 is the socket's peer, 1 the rightmost X-Forwarded-For entry, and so on. */
export type Trust = (address: string, index: number) => boolean;

const MAX_HOPS = 32;

/** `''` (none), a hop count such as `1`, or a comma list such as `10.0.0.0/8, 127.0.0.1`; throws on anything else. */
export function parseTrustedProxies(value: string): TrustedProxies {
  const text = value.trim();
  if (text === '') return { hops: 0 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`a hop count must be at most ${MAX_HOPS} (got ${hops})`);
    return { hops };
  }
  const ranges = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const range of ranges) {
    try {
      proxyaddr.compile(range);
    } catch {
      throw new Error(`"${range}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`);
    }
  }
  return { ranges };
}

export function trustOf(setting: TrustedProxies): Trust {
  if ('ranges' in setting) return proxyaddr.compile(setting.ranges);
  const { hops } = setting;
  return (_address, index) => index < hops;
}

type RequestLike = Pick<IncomingMessage, 'headers' | 'socket'>;

/**
 * The client's address: the nearest hop that is not trusted, walking from the socket's peer back
 * through X-Forwarded-For. IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) are told as IPv4, so one
 * client is one address whichever way it arrived. An entry that is not an address (a trusted proxy
 * passing on garbage) is skipped for the hop that handed it on.
 */
export function clientAddressOf(request: RequestLike, trust: Trust): string | null {
  const hops = proxyaddr.all(request as IncomingMessage, trust);
  for (let index = hops.length - 1; index >= 0; index--) {
    const address = canonicalAddress(hops[index]);
    if (address) return address;
  }
  return null;
}

/** Whether the socket's peer is a trusted proxy, whose X-Forwarded-* headers may be believed. */
export function peerIsTrusted(request: RequestLike, trust: Trust): boolean {
  const peer = request.socket.remoteAddress;
  return peer !== undefined && trust(peer, 0);
}

function canonicalAddress(value: string | undefined): string | null {
  // net.isIP is strict (ipaddr.js alone would also read `2130706433` or `0x7f.1` as addresses).
  if (!value || isIP(value) === 0) return null;
  try {
    return ipaddr.process(value).toString();
  } catch {
    return null;
  }
}
