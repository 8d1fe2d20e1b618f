/**
 * Remembers which client an API key belongs to, so a data call with `x-api-key` does not read the database
 * each time. On the embedded database the data-dir lock guarantees one server process, so forgetting a
 * client's keys when its key is replaced makes the old key stop at once. On PostgreSQL it is used only with the
 * cluster channel: every process forgets a replaced key when it hears of it, and the memo is emptied and not
 * trusted while the channel is down (then every call asks the database, decision 0013).
 */
export class ApiKeyMemo {
  private readonly byHash = new Map<string, string>();
  /** Bumped by every forget: a database read that started before one must not be remembered. */
  epoch = 0;

  constructor(private readonly maxEntries = 10_000) {}

  get(lookupHash: string): string | undefined {
    return this.byHash.get(lookupHash);
  }

  set(lookupHash: string, clientId: string): void {
    if (this.byHash.size >= this.maxEntries) this.byHash.clear();
    this.byHash.set(lookupHash, clientId);
  }

  clear(): void {
    this.epoch += 1;
    this.byHash.clear();
  }

  forgetClient(clientId: string): void {
    this.epoch += 1;
    for (const [hash, owner] of this.byHash) if (owner === clientId) this.byHash.delete(hash);
  }
}
