/** kube's ExpectationsTimeout: expectations older than this are treated as met (a lost watch event must not wedge a controller). */
const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  /** Pods expected to go, by key (UIDTrackingControllerExpectations: a deletion is counted once). */
  deleting: Set<string>;
  at: number;
}

/**
 * kube's ControllerExpectations (pkg/controller/controller_utils.go) with UID tracking of deletions: before a
 * controller creates or deletes pods it records how many it expects to see, the pod informer's events lower the
 * count, and the controller does not act again on its cache until they are seen, so a cache that lags never
 * makes it create or delete twice.
 */
export class ControllerExpectations {
  private readonly items = new Map<string, Expectation>();

  /** SatisfiedExpectations: nothing pending, never set, or expired. */
  satisfied(key: string): boolean {
    const e = this.items.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return Date.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, n: number): void {
    this.items.set(key, { add: n, del: 0, deleting: new Set(), at: Date.now() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.items.set(key, { add: 0, del: podKeys.length, deleting: new Set(podKeys), at: Date.now() });
  }

  creationObserved(key: string): void {
    const e = this.items.get(key);
    if (e) e.add--;
  }

  /** A pod deletion seen (or a delete that failed with NotFound): counted once per pod. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.items.get(key);
    if (e?.deleting.delete(podKey)) e.del--;
  }

  delete(key: string): void {
    this.items.delete(key);
  }
}
