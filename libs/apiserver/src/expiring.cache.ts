/**
 * Answers kept for a time each, at most `capacity` of them (the oldest inserted dropped first), as kube's
 * webhook authenticator and authorizer caches keep TokenReview and SubjectAccessReview answers.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value stored under `key`, unless it expired (then it is dropped). */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires > this.now()) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number): void {
    // A re-set entry counts as the newest.
    if (!this.entries.delete(key) && this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
