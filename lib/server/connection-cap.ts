import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Trust } from '../trusted-proxies';

/**
 * At most `max` open connections per client address (0: no cap), counted from the socket's peer as
 * it connects: one over the cap is destroyed on 'connection', before a byte of it is parsed, so one
 * address cannot take every slot of MAX_CONNECTIONS with connections it keeps open (slow headers,
 * idle kept-alive ones). Nothing but the socket is known then, so a peer that is a trusted proxy is
 * not capped: all its clients arrive through it, and the proxy bounds them itself. An IPv6 peer is
 * counted by its /64, which one host usually holds whole.
 */
export function capConnectionsPerAddress(server: Server, { max, trust }: { max: number; trust: Trust }): void {
  if (max === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    // A socket already gone has no peer: nothing to count.
    if (peer === undefined) return void socket.destroy();
    if (trust(peer, 0)) return;
    const key = addressKey(peer);
    const count = open.get(key) ?? 0;
    if (count >= max) return void socket.destroy();
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

function addressKey(peer: string): string {
  try {
    const address = ipaddr.process(peer);
    if (address.kind() === 'ipv4') return address.toString();
    const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
    return `${prefix.join(':')}::/64`;
  } catch {
    return peer;
  }
}
