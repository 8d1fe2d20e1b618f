/**
 * Remembers which client an API key belongs to, so a data call with `x-api-key` does not read the database
 * each time. Only used on the embedded database: there the data-dir lock guarantees one server process, so
 * forgetting a client's keys when its key is replaced makes the old key stop at once. With PostgreSQL
 * several processes may serve the API, and one process cannot tell the others, so every call asks the
 * database (decision 0013).
 */
export class ApiKeyMemo {
  private readonly byHash = new Map<string, string>();

  constructor(private readonly maxEntries = 10_000) {}

  get(lookupHash: string): string | undefined {
    return this.byHash.get(lookupHash);
  }

  set(lookupHash: string, clientId: string): void {
    if (this.byHash.size >= this.maxEntries) this.byHash.clear();
    this.byHash.set(lookupHash, clientId);
  }

  forgetClient(clientId: string): void {
    for (const [hash, owner] of this.byHash) if (owner === clientId) this.byHash.delete(hash);
  }
}
