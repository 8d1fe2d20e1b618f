import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { TargetPolicyError } from '../errors.ts';
import type { RunTarget } from '../types.ts';
import { isPrivateAddress } from './private-address.ts';

/** node's `lookup` option of net/tls/http(s) connections and agents (callback form, `all: true` supported). */
export type PinnedLookup = (
  hostname: string,
  options: number | { family?: number | string; all?: boolean; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** What the guard resolves names with and refuses; tests inject their own (a rebinding resolver, a loopback treated as public). */
export interface TargetGuardOptions {
  /** `dns.promises.lookup`'s shape with `all: true`; called once per host and run. */
  lookup?: (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;
  /** Addresses refused unless the target allows private addresses. */
  isPrivate?: (address: string) => boolean;
}

/**
 * Enforces a target's policy: a test reaches only the client's website origin and the origins an operator added,
 * over http(s), and never a loopback or private address (after DNS resolution) unless the target allows it.
 * A name is resolved once per run and its approved addresses are pinned: every connection a runner makes goes to
 * one of them (through `lookup`), so a DNS answer that changes after the check (rebinding) is never used.
 */
export interface TargetGuard {
  readonly baseUrl: URL;
  /** Origins this target may reach (the website's first). */
  readonly origins: readonly string[];
  /** Resolves `pathOrUrl` against the base URL and throws a TargetPolicyError when the policy refuses it. */
  check(pathOrUrl: string): Promise<URL>;
  /** The same verdict without throwing: the reason, or null when allowed. */
  refusal(pathOrUrl: string): Promise<string | null>;
  /** The approved addresses of one of the origins' hosts (an IP literal is its own); throws TargetPolicyError. */
  addresses(hostname: string): Promise<LookupAddress[]>;
  /** A `lookup` for sockets and agents that answers only with pinned, approved addresses. */
  readonly lookup: PinnedLookup;
}

type HostVerdict = { addresses: LookupAddress[]; refusal: null } | { addresses: []; refusal: string };

export function createTargetGuard(target: RunTarget, options: TargetGuardOptions = {}): TargetGuard {
  const resolve = options.lookup ?? ((hostname: string) => dnsLookup(hostname, { all: true }));
  const isPrivate = options.isPrivate ?? isPrivateAddress;
  const baseUrl = new URL(target.baseUrl);
  const origins = [baseUrl.origin, ...target.allowedOrigins.map((o) => new URL(o).origin)];
  const hosts = new Set(origins.map((o) => bareHost(new URL(o).hostname)));
  // One lookup per host and run: the addresses judged are the addresses connected to.
  const verdictByHost = new Map<string, Promise<HostVerdict>>();

  const hostVerdict = (hostname: string): Promise<HostVerdict> => {
    const bare = bareHost(hostname);
    let verdict = verdictByHost.get(bare);
    if (!verdict) {
      verdict = judgeHost(bare, target.allowPrivateAddresses, resolve, isPrivate);
      verdictByHost.set(bare, verdict);
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
    return (await hostVerdict(url.hostname)).refusal;
  };

  const addresses = async (hostname: string): Promise<LookupAddress[]> => {
    const bare = bareHost(hostname);
    if (!hosts.has(bare)) throw new TargetPolicyError(hostname, 'host is not the target\'s website or an allowed origin');
    const verdict = await hostVerdict(bare);
    if (verdict.refusal !== null) throw new TargetPolicyError(hostname, verdict.refusal);
    return verdict.addresses;
  };

  const lookup: PinnedLookup = (hostname, lookupOptions, callback) => {
    const opts = typeof lookupOptions === 'number' ? { family: lookupOptions } : lookupOptions;
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
    addresses(hostname).then(
      (approved) => {
        const usable = family === 4 || family === 6 ? approved.filter((a) => a.family === family) : approved;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`no approved IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        } else if (opts.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: Error) => callback(error, []),
    );
  };

  return {
    baseUrl,
    origins,
    refusal,
    addresses,
    lookup,
    async check(pathOrUrl) {
      const reason = await refusal(pathOrUrl);
      if (reason) throw new TargetPolicyError(String(pathOrUrl), reason);
      return new URL(pathOrUrl, baseUrl);
    },
  };
}

/** A URL's hostname without an IPv6 literal's brackets. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

async function judgeHost(
  hostname: string,
  allowPrivate: boolean,
  resolve: NonNullable<TargetGuardOptions['lookup']>,
  isPrivate: (address: string) => boolean,
): Promise<HostVerdict> {
  let addresses: LookupAddress[];
  const family = isIP(hostname);
  if (family) {
    addresses = [{ address: hostname, family }];
  } else {
    try {
      addresses = await resolve(hostname, { all: true });
    } catch {
      return { addresses: [], refusal: `host ${hostname} does not resolve` };
    }
    if (addresses.length === 0) return { addresses: [], refusal: `host ${hostname} does not resolve` };
  }
  if (allowPrivate) return { addresses, refusal: null };
  const blocked = addresses.find((a) => isPrivate(a.address));
  return blocked ? { addresses: [], refusal: `host ${hostname} resolves to the private address ${blocked.address}` } : { addresses, refusal: null };
}
