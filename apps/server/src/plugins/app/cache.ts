import fp from 'fastify-plugin';
import type { ClusterChannel } from '../../lib/cluster-channel.ts';

export type CacheNamespace = 'profile' | 'tests' | 'reports' | 'insights';

interface Entry {
  value: unknown;
  expires: number;
}

/**
 * Per-client, per-namespace cache of hot reads (PGlite runs inside the event loop, so a read avoided is
 * throughput gained). With several processes on PostgreSQL every invalidation is announced on the cluster
 * channel and applied by all of them at once; while that channel is down (or without it: EVENTS_VIA_NOTIFY=false)
 * an entry may outlive a write in another process by at most the TTL.
 */
export class ClientCache {
  private readonly entries = new Map<string, Map<string, Entry>>();
  private channel: ClusterChannel | null = null;
  /** Bumped by every invalidation (per client, and for all): a load that started before one must not be stored. */
  private generation = 0;
  private readonly clientGeneration = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  /** Announces this cache's invalidations to the other processes, and applies theirs. */
  useChannel(channel: ClusterChannel): void {
    this.channel = channel;
    channel.on('cache', (m) => {
      if (m.clientId === null) this.clearLocally(m.namespaces);
      else if (m.namespaces === null) this.invalidateLocally(m.clientId);
      else for (const ns of m.namespaces) this.invalidateLocally(m.clientId, ns);
    });
    // Invalidations may have been missed while it was down.
    channel.onHealth((healthy) => {
      if (healthy) this.clear();
    });
  }

  private bucketKey(clientId: string, ns: CacheNamespace): string {
    return `${clientId}\u0000${ns}`;
  }

  get<T>(clientId: string, ns: CacheNamespace, key = ''): T | undefined {
    const entry = this.entries.get(this.bucketKey(clientId, ns))?.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.get(this.bucketKey(clientId, ns))?.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set<T>(clientId: string, ns: CacheNamespace, value: T, key = ''): T {
    const bucketKey = this.bucketKey(clientId, ns);
    let bucket = this.entries.get(bucketKey);
    if (!bucket) {
      bucket = new Map();
      this.entries.set(bucketKey, bucket);
    }
    bucket.set(key, { value, expires: Date.now() + this.ttlMs });
    return value;
  }

  /** Returns the cached value, or loads, stores and returns it. */
  async wrap<T>(clientId: string, ns: CacheNamespace, load: () => Promise<T>, key = ''): Promise<T> {
    const hit = this.get<T>(clientId, ns, key);
    if (hit !== undefined) return hit;
    const seen = [this.generation, this.clientGeneration.get(clientId)];
    const value = await load();
    const still = seen[0] === this.generation && seen[1] === this.clientGeneration.get(clientId);
    return still ? this.set(clientId, ns, value, key) : value;
  }

  /**
   * Empties one namespace of a client, or all of them, in every process. The promise (which never rejects)
   * resolves once the other processes were told: await it when the next read may come to another process.
   */
  invalidate(clientId: string, ns?: CacheNamespace): Promise<void> {
    this.invalidateLocally(clientId, ns);
    return this.channel?.publish({ kind: 'cache', clientId, namespaces: ns ? [ns] : null }) ?? Promise.resolve();
  }

  /** Empties these namespaces for every client, in every process. */
  clearNamespaces(namespaces: readonly CacheNamespace[]): Promise<void> {
    this.clearLocally(namespaces);
    return this.channel?.publish({ kind: 'cache', clientId: null, namespaces: [...namespaces] }) ?? Promise.resolve();
  }

  private invalidateLocally(clientId: string, ns?: CacheNamespace): void {
    this.clientGeneration.set(clientId, (this.clientGeneration.get(clientId) ?? 0) + 1);
    if (ns) {
      this.entries.delete(this.bucketKey(clientId, ns));
      return;
    }
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(`${clientId}\u0000`)) this.entries.delete(key);
    }
  }

  private clearLocally(namespaces: readonly CacheNamespace[] | null): void {
    if (!namespaces) return this.clear();
    this.generation += 1;
    for (const key of [...this.entries.keys()]) {
      if (namespaces.some((ns) => key.endsWith(`\u0000${ns}`))) this.entries.delete(key);
    }
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

export const cache = fp(async (app) => {
  const cache = new ClientCache(app.env.CACHE_TTL * 1000);
  if (app.cluster) cache.useChannel(app.cluster);
  app.decorate('cache', cache);
}, { name: 'cache', dependencies: ['cluster'] });

declare module 'fastify' {
  interface FastifyInstance {
    cache: ClientCache;
  }
}
