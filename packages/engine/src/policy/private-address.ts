import { BlockList, isIP } from 'node:net';

/**
 * Addresses no client's public website lives on: loopback, private, link-local, shared, benchmarking, reserved,
 * multicast, and the IPv6 ranges that are local, retired or translate to an IPv4 address we cannot judge.
 * Documentation ranges (TEST-NET, 2001:db8::/32) route nowhere and stay allowed.
 */
const ipv4Ranges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.88.99.0', 24], // retired 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const) {
  ipv4Ranges.addSubnet(net, prefix, 'ipv4');
}

const ipv6Ranges = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the retired IPv4-compatible form (::a.b.c.d)
  ['64:ff9b::', 96], // NAT64: the IPv4 side is whatever the local translator reaches
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: tunnels to an obfuscated IPv4 address, refused whole
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // retired ORCHID
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // retired site-local
  ['ff00::', 8], // multicast
] as const) {
  ipv6Ranges.addSubnet(net, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return null;
  let text = bare.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries and delivers to, for the forms that embed one: IPv4-mapped
 * (::ffff:a.b.c.d), SIIT IPv4-translated (::ffff:0:a.b.c.d) and 6to4 (2002:aabb:ccdd::/48).
 */
export function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return ipv4Of(g6, g7);
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return ipv4Of(g6, g7);
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return null;
}

/** True for an address no public website should resolve to; IPv6 forms that embed an IPv4 address are judged by it. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return ipv4Ranges.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIPv4(address);
  if (v4) return ipv4Ranges.check(v4, 'ipv4');
  return ipv6Ranges.check(address.replace(/%.*$/, ''), 'ipv6');
}
