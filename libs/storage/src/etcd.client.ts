import { SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { handleWhen, retry, type IPolicy } from 'cockatiel';
import { Etcd3, isRecoverableError, type IKeyValue, type IRangeRequest, type IRangeResponse, type ITxnRequest, type ITxnResponse, type Watcher } from 'etcd3';
import { etcdRequestDuration, etcdRequestErrors } from './storage.metrics';
import { prefixEnd, REGISTRY_ROOT } from './keys';

/** Client TLS for etcd, as kube's --etcd-cafile/--etcd-certfile/--etcd-keyfile (PEM contents). */
export interface EtcdTls {
  /** CA to verify etcd's serving certificate; the system roots when absent. */
  caPem?: string;
  /** Client certificate and key, for etcd's --client-cert-auth. */
  certPem?: string;
  keyPem?: string;
}

export interface EtcdClientOptions {
  /** http://host:port or https://host:port (a bare host:port is http), all with the same scheme. */
  endpoints: string[];
  tls?: EtcdTls;
  /**
   * The key read (count only) to learn etcd's current revision: it must lie in a range the client may read, so a
   * client confined to its own prefix by etcd's RBAC probes a key of that prefix. Default `/registry/\0revision`.
   */
  revisionKey?: string;
}

/**
 * Checks the endpoints and TLS settings agree, so etcd is never reached in plaintext by mistake: every endpoint
 * with one scheme, TLS files only with https://, a client certificate only with its key. Throws what is wrong.
 */
export function checkEtcdConnection(options: EtcdClientOptions): { secure: boolean } {
  if (options.endpoints.length === 0) throw new Error('no etcd endpoints given');
  const schemes = new Set(options.endpoints.map((e) => (/^https:\/\//i.test(e) ? 'https' : 'http')));
  if (schemes.size > 1) throw new Error(`etcd endpoints mix http:// and https://: ${options.endpoints.join(',')}`);
  const secure = schemes.has('https');
  const tls = options.tls ?? {};
  const given = [tls.caPem && 'CA file', tls.certPem && 'certificate file', tls.keyPem && 'key file'].filter(Boolean);
  if (!secure && given.length > 0) throw new Error(`etcd TLS settings (${given.join(', ')}) are given but the etcd endpoints use http://: use https:// endpoints`);
  if (Boolean(tls.certPem) !== Boolean(tls.keyPem)) throw new Error('an etcd client certificate needs its key, and a key its certificate');
  return { secure };
}

export type { IKeyValue, Watcher };

/** Thrown (as cause) when a read or watch asks for a compacted revision. */
export class CompactedError extends Error {
  constructor(
    readonly requested: number,
    readonly compactRevision: number,
  ) {
    super(`required revision ${requested} has been compacted (compact revision ${compactRevision})`);
  }
}

function isCompactionError(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /compacted/i.test(msg);
}

/** grpc-js's answer when no connection was ready to carry the call: nothing reached etcd. */
const NOT_SENT = /No connection established/;

/**
 * etcd3 retries every call on a transient gRPC error (3 attempts). For a write that is wrong: the connection can
 * drop after etcd committed and before its reply arrived, and the repeat then fails its own compare (a create
 * answers AlreadyExists, an update Conflict) though the first attempt succeeded. As clientv3's retry interceptor, a
 * write is repeated only when the error proves it was never sent; reads keep etcd3's retries.
 */
export function isRetriableEtcdError(err: Error, write: boolean): boolean {
  return isRecoverableError(err) && (!write || NOT_SENT.test(err.message));
}

const readRetries = retry(handleWhen((err) => isRetriableEtcdError(err, false)), { maxAttempts: 3 });
const writeRetries = retry(handleWhen((err) => isRetriableEtcdError(err, true)), { maxAttempts: 3 });
/**
 * Whether the etcd3 call being started writes. etcd3 hands its call to the global policy synchronously inside
 * kv.txn(), so a flag set around that call picks the policy; an AsyncLocalStorage would do it too, but enabling
 * one puts a hook on every promise of the process.
 */
let startingWrite = false;
const globalPolicy = {
  execute: (fn: Parameters<typeof readRetries.execute>[0], signal?: AbortSignal) => (startingWrite ? writeRetries : readRetries).execute(fn, signal),
} as unknown as IPolicy;

/** A txn with a put or a delete among its operations. */
function writes(req: ITxnRequest): boolean {
  return [...(req.success ?? []), ...(req.failure ?? [])].some((op) => op.request_put !== undefined || op.request_delete_range !== undefined || op.request_txn !== undefined);
}

/**
 * The one place that talks to etcd: raw KV range/txn calls (full control over revisions and limits),
 * timed into etcd_request_duration_seconds. The etcd3 package is unmaintained, so it stays behind this class.
 */
let tracer: Tracer | undefined;
const etcdTracer = (): Tracer => (tracer ??= trace.getTracer('go.etcd.io/etcd/client/v3'));

export class EtcdClient {
  readonly raw: Etcd3;
  private revisionWaiters: Array<(rev: number) => void> = [];
  private revisionErrorWaiters: Array<(err: unknown) => void> = [];
  private revisionInFlight = false;
  private revisionQueued = false;
  private readonly revisionKey: Buffer;

  constructor(options: EtcdClientOptions) {
    this.revisionKey = Buffer.from(options.revisionKey ?? `${REGISTRY_ROOT}\u0000revision`);
    const { secure } = checkEtcdConnection(options);
    // The scheme stays on the hosts: etcd3 speaks TLS (system roots) to https:// hosts without credentials.
    const hosts = options.endpoints.map((e) => (/^https?:\/\//i.test(e) ? e : `http://${e}`));
    const tls = options.tls;
    const credentials =
      secure && tls && (tls.caPem || tls.certPem)
        ? // grpc uses the system roots for a null root certificate.
          { rootCertificate: (tls.caPem ? Buffer.from(tls.caPem) : null) as Buffer, privateKey: tls.keyPem ? Buffer.from(tls.keyPem) : undefined, certChain: tls.certPem ? Buffer.from(tls.certPem) : undefined }
        : undefined;
    // Watch catch-up batches up to 1000 revisions in one message: lift grpc's 4 MiB receive cap, or a
    // backlog of big objects would fail and retry forever.
    this.raw = new Etcd3({ hosts, credentials, dialTimeout: 3000, grpcOptions: { 'grpc.max_receive_message_length': -1 }, faultHandling: { global: globalPolicy } });
  }

  async range(req: IRangeRequest, type: string, operation = 'get'): Promise<IRangeResponse> {
    return this.timed(operation, type, async () => {
      try {
        return await this.raw.kv.range(req);
      } catch (err) {
        if (isCompactionError(err)) throw new CompactedError(Number(req.revision ?? 0), 0);
        throw err;
      }
    });
  }

  async txn(req: ITxnRequest, type: string, operation: string): Promise<ITxnResponse> {
    return this.timed(operation, type, () => (writes(req) ? this.startWrite(req) : this.raw.kv.txn(req)), 'Txn');
  }

  private startWrite(req: ITxnRequest): Promise<ITxnResponse> {
    startingWrite = true;
    try {
      return this.raw.kv.txn(req);
    } finally {
      startingWrite = false;
    }
  }

  async getKey(key: string, type: string): Promise<IKeyValue | undefined> {
    const res = await this.range({ key: Buffer.from(key) }, type);
    return res.kvs[0];
  }

  /** Range over every key under a prefix starting at `start` (inclusive). */
  rangePrefix(prefix: string, opts: { start?: string; limit?: number; revision?: number }, type: string): Promise<IRangeResponse> {
    const p = Buffer.from(prefix);
    return this.range(
      { key: opts.start ? Buffer.from(opts.start) : p, range_end: prefixEnd(p), limit: opts.limit ?? 0, revision: opts.revision ?? 0 },
      type,
      'list',
    );
  }

  async countPrefix(prefix: string, type: string, revision = 0): Promise<{ count: number; revision: number }> {
    const p = Buffer.from(prefix);
    const res = await this.range({ key: p, range_end: prefixEnd(p), count_only: true, revision }, type, 'count');
    return { count: Number(res.count), revision: Number(res.header.revision) };
  }

  /**
   * etcd's current revision. Concurrent callers share one round trip, but a caller never gets a revision
   * read before it asked (reads stay linearizable): callers arriving during a flight wait for the next one.
   */
  currentRevision(): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.revisionWaiters.push(resolve);
      this.revisionErrorWaiters.push(reject);
      if (this.revisionInFlight) this.revisionQueued = true;
      else void this.fetchRevision();
    });
  }

  private async fetchRevision(): Promise<void> {
    this.revisionInFlight = true;
    const waiters = this.revisionWaiters;
    const errorWaiters = this.revisionErrorWaiters;
    this.revisionWaiters = [];
    this.revisionErrorWaiters = [];
    try {
      const res = await this.range({ key: this.revisionKey, count_only: true }, 'revision', 'get');
      const rev = Number(res.header.revision);
      waiters.forEach((w) => w(rev));
    } catch (err) {
      errorWaiters.forEach((w) => w(err));
    } finally {
      this.revisionInFlight = false;
      if (this.revisionQueued || this.revisionWaiters.length) {
        this.revisionQueued = false;
        if (this.revisionWaiters.length) void this.fetchRevision();
      }
    }
  }

  async compact(revision: number): Promise<void> {
    await this.timed('compact', 'all', () => this.raw.kv.compact({ revision, physical: true }), 'Compact');
  }

  /** A lease that expires after ttlSeconds; returns its id. */
  async grantLease(ttlSeconds: number): Promise<string> {
    return this.timed('grant', 'lease', async () => {
      const res = await this.raw.leaseClient.leaseGrant({ TTL: ttlSeconds, ID: 0 });
      return res.ID;
    });
  }

  close(): void {
    this.raw.close();
  }

  private async timed<T>(operation: string, type: string, fn: () => Promise<T>, method = 'Range'): Promise<T> {
    // Inside a traced request (tracing on and sampled), the call is a client span of it, as kube's otelgrpc
    // interceptor makes it; otherwise the check is all it costs.
    const parent = trace.getActiveSpan();
    const span = parent?.isRecording() ? etcdTracer().startSpan(`etcdserverpb.KV/${method}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.service': 'etcdserverpb.KV', 'rpc.method': method, 'etcd.operation': operation, 'etcd.type': type } }) : undefined;
    const end = etcdRequestDuration.startTimer({ operation, type });
    try {
      return await fn();
    } catch (err) {
      etcdRequestErrors.inc({ operation, type });
      span?.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      end();
      span?.end();
    }
  }
}
