import fp from 'fastify-plugin';

export type CacheNamespace = 'profile' | 'tests' | 'reports' | 'insights';

interface Entry {
  value: unknown;
  expires: number;
}

/**
 * Per-client, per-namespace cache of hot reads (PGlite runs inside the event loop, so a read avoided is
 * throughput gained). In-process: with several API processes on PostgreSQL an entry may outlive a write in
 * another process by at most the TTL; writes in this process invalidate at once.
 */
export class ClientCache {
  private readonly entries = new Map<string, Map<string, Entry>>();

  constructor(private readonly ttlMs: number) {}

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
    return this.set(clientId, ns, await load(), key);
  }

  /** Empties one namespace of a client, or all of them. */
  invalidate(clientId: string, ns?: CacheNamespace): void {
    if (ns) {
      this.entries.delete(this.bucketKey(clientId, ns));
      return;
    }
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(`${clientId}\u0000`)) this.entries.delete(key);
    }
  }

  /** Empties these namespaces for every client. */
  clearNamespaces(namespaces: readonly CacheNamespace[]): void {
    for (const key of [...this.entries.keys()]) {
      if (namespaces.some((ns) => key.endsWith(`\u0000${ns}`))) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

export const cache = fp(async (app) => {
  app.decorate('cache', new ClientCache(app.env.CACHE_TTL * 1000));
});

declare module 'fastify' {
  interface FastifyInstance {
    cache: ClientCache;
  }
}
