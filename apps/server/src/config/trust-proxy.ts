import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which peers' X-Forwarded-For the server believes (Fastify's `trustProxy`): false, none (request.ip is the
 * socket's peer); a hop count, that many proxies in front, each appending its peer; or addresses and CIDRs (and
 * proxy-addr's names loopback, linklocal, uniquelocal), the proxies by where they connect from.
 * `true` would trust every hop, making request.ip the left-most value, which the caller writes: refused.
 */
export type TrustProxy = false | number | string[];

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export const trustProxySetting = z
  .string()
  .default('')
  .transform((raw, ctx): TrustProxy => {
    const value = raw.trim();
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({ code: 'custom', message: 'true would trust an X-Forwarded-For the caller wrote; give the hop count (e.g. 1) or the proxy\u2019s addresses (e.g. 127.0.0.1)' });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
    const bad = entries.find((e) => !isAddressOrCidr(e));
    if (bad !== undefined || !entries.length) {
      ctx.addIssue({ code: 'custom', message: `"${bad ?? value}" is neither a hop count nor an address or CIDR (e.g. 1, or 127.0.0.1,10.0.0.0/8)` });
      return z.NEVER;
    }
    return entries;
  });
