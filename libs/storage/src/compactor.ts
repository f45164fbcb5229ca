import type { EtcdClient } from './etcd.client';

/** The key API servers coordinate compaction through (kube's compactRevKey); its version is the "compact time". */
export const COMPACT_REV_KEY = 'compact_rev_key';

/** What one compaction attempt did. */
export interface CompactionStep {
  /** The compact time (version of COMPACT_REV_KEY) this compactor now knows. */
  readonly compactTime: number;
  /** etcd's revision now: the next step compacts up to it, if this compactor wins that round. */
  readonly revision: number;
  /** The revision compacted to, when this step compacted. */
  readonly compacted?: number;
}

/**
 * kube-apiserver's etcd compactor (storage/etcd3/compact.go): every interval, a transaction that succeeds only if
 * COMPACT_REV_KEY's version is still the compact time this compactor saw, and writes the revision recorded one
 * interval earlier; the winner compacts etcd to that revision. Every API server may run one against the same etcd:
 * the CAS lets one of them compact per interval, and watchers keep at least one interval of history. A compactor
 * that lost the round learns the new compact time and tries again next interval.
 */
export class Compactor {
  private compactTime = 0;
  private revision = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly client: EtcdClient,
    readonly intervalMs: number,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** Starts compacting every interval (nothing with an interval of 0, as kube's --etcd-compaction-interval=0). */
  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    const tick = (): void => {
      this.running = this.step()
        .then(() => undefined)
        .catch((err: unknown) => this.log(`etcd compaction failed: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => {
          this.running = undefined;
          if (this.timer) this.timer = setTimeout(tick, this.intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, this.intervalMs).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One round of kube's compact(): a lost CAS is not an error. */
  async step(): Promise<CompactionStep> {
    const key = Buffer.from(COMPACT_REV_KEY);
    const res = await this.client.txn(
      {
        compare: [{ key, target: 'Version', result: 'Equal', version: this.compactTime }],
        success: [{ request_put: { key, value: Buffer.from(String(this.revision)) } }],
        failure: [{ request_range: { key } }],
      },
      'compact_rev_key',
      'compact',
    );
    const current = Number(res.header.revision);
    if (!res.succeeded) {
      this.compactTime = Number(res.responses[0]?.response_range?.kvs[0]?.version ?? 0);
      this.revision = current;
      return { compactTime: this.compactTime, revision: current };
    }
    this.compactTime += 1;
    const target = this.revision;
    this.revision = current;
    // Nothing is compacted at start: the first round only records where the next one compacts to.
    if (target === 0) return { compactTime: this.compactTime, revision: current };
    await this.client.compact(target);
    this.log(`etcd: compacted to revision ${target}`);
    return { compactTime: this.compactTime, revision: current, compacted: target };
  }
}

/** A Go duration as kube's flags take it ("5m", "1m30s", "300ms", "0"), in milliseconds. */
export function parseGoDuration(text: string): number {
  const t = text.trim();
  if (t === '0') return 0;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total += Number(m[1]) * units[m[2]];
    matched = re.lastIndex;
  }
  if (t === '' || matched !== t.length) throw new Error(`invalid duration "${text}": expected a Go duration such as 5m, 90s or 0`);
  return total;
}
