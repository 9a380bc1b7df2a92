/**
 * An isolate-local map with a time to live and a size bound (least recently used entries go first), for records the
 * hot path would otherwise read from D1 on every request.
 * Invariant: `get` never answers an entry older than `ttlMs` by the injected clock; the map never holds more than
 * `maxEntries`; a value read from storage before the last `forget`/`forgetWhere`/`clear` is never stored (`epoch`:
 * read it before the storage read, pass it to `set`), so a change made in this isolate is seen at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Changes whenever anything is forgotten; pass the value read before a storage read to `set`. */
  get epoch(): number {
    return this.generation;
  }

  /** The injected clock's now (for callers stamping `readAt` before a storage read). */
  clock(): number {
    return this.now();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live entry for `key` (refreshed as most recently used), or undefined. */
  get(key: string): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { value: entry.value };
  }

  /**
   * Stores `value`, unless something was forgotten since `epoch` was read (the value may predate that change).
   * `readAt` is when the storage read began (default now): the entry ages from then, so a slow read does not
   * stretch the bound past `ttlMs` after the data it saw.
   */
  set(key: string, value: V, epoch: number, readAt = this.now()): void {
    if (epoch !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, { value, at: readAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  forget(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Forgets every entry whose value matches (a linear pass: changes are rare, the map is small). */
  forgetWhere(match: (value: V) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
