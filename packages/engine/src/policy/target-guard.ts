import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TargetPolicyError } from '../errors.ts';
import type { RunTarget } from '../types.ts';
import { isPrivateAddress } from './private-address.ts';

/**
 * Enforces a target's policy: a test reaches only the client's website origin and the origins an operator added,
 * over http(s), and never a loopback or private address (after DNS resolution) unless the target allows it.
 */
export interface TargetGuard {
  readonly baseUrl: URL;
  /** Origins this target may reach (the website's first). */
  readonly origins: readonly string[];
  /** Resolves `pathOrUrl` against the base URL and throws a TargetPolicyError when the policy refuses it. */
  check(pathOrUrl: string): Promise<URL>;
  /** The same verdict without throwing: the reason, or null when allowed. */
  refusal(pathOrUrl: string): Promise<string | null>;
}

export function createTargetGuard(target: RunTarget): TargetGuard {
  const baseUrl = new URL(target.baseUrl);
  const origins = [baseUrl.origin, ...target.allowedOrigins.map((o) => new URL(o).origin)];
  // One lookup per host and run: repeated checks (every browser request) stay cheap.
  const verdictByHost = new Map<string, Promise<string | null>>();

  const hostVerdict = (hostname: string): Promise<string | null> => {
    let verdict = verdictByHost.get(hostname);
    if (!verdict) {
      verdict = judgeHost(hostname, target.allowPrivateAddresses);
      verdictByHost.set(hostname, verdict);
    }
    return verdict;
  };

  const refusal = async (pathOrUrl: string): Promise<string | null> => {
    let url: URL;
    try {
      url = new URL(pathOrUrl, baseUrl);
    } catch {
      return 'not a valid URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `protocol ${url.protocol} is not http(s)`;
    if (!origins.includes(url.origin)) return `origin ${url.origin} is not the target's website or an allowed origin`;
    return hostVerdict(url.hostname);
  };

  return {
    baseUrl,
    origins,
    refusal,
    async check(pathOrUrl) {
      const reason = await refusal(pathOrUrl);
      if (reason) throw new TargetPolicyError(String(pathOrUrl), reason);
      return new URL(pathOrUrl, baseUrl);
    },
  };
}

async function judgeHost(hostname: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const bare = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(bare)) {
    addresses = [bare];
  } else {
    try {
      addresses = (await lookup(bare, { all: true })).map((a) => a.address);
    } catch {
      return `host ${hostname} does not resolve`;
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  return blocked ? `host ${hostname} resolves to the private address ${blocked}` : null;
}
