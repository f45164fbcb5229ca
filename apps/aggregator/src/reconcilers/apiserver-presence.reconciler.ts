import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { isStatusError, type KubeList, type KubeObject } from '@kube/apimachinery';
import { APISERVER_IDENTITY_USER } from '@kube/authorization';
import { Storage } from '@kube/storage';
import { BackendAgents } from '../proxy/backend.target';
import { backendRequest, type BackendIdentity } from '../proxy/backend.request';
import { RoutingTable } from '../routing/routing.table';
import {
  advertisedEndpoint,
  apiServerId,
  IDENTITY_LEASE_DURATION_SECONDS,
  IDENTITY_LEASE_RENEW_INTERVAL_MS,
  IDENTITY_NAMESPACE,
  IDENTITY_SELECTOR,
  identityHostKey,
  identityLease,
  isLeaseExpired,
  MASTER_LEASE_INTERVAL_MS,
  MASTER_LEASE_TTL_SECONDS,
  masterLeaseKey,
  masterLeaseValue,
  type AdvertisedEndpoint,
} from './apiserver-identity';

/** Timings of the presence records; kube's values unless the environment says otherwise (tests shorten them). */
export interface PresenceOptions {
  identityLeaseDurationSeconds: number;
  identityLeaseRenewIntervalMs: number;
  /** How often expired identity Leases are collected (kube: every hour, its lease duration). */
  identityLeaseGcPeriodMs: number;
  masterLeaseTtlSeconds: number;
  masterLeaseIntervalMs: number;
  podIp?: string;
}

function seconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}=${raw}: expected a whole number of seconds ≥ 1`);
  return n;
}

/**
 * KUBE_IDENTITY_LEASE_DURATION_SECONDS (3600) and KUBE_IDENTITY_LEASE_RENEW_INTERVAL_SECONDS (10): kube's
 * IdentityLeaseDurationSeconds and IdentityLeaseRenewIntervalPeriod; KUBE_ENDPOINT_RECONCILER_TTL_SECONDS (15): the
 * master lease's TTL (kube's DefaultEndpointReconcilerTTL), re-recorded every 10 s or 2/3 of a shorter TTL;
 * KUBE_POD_IP: the address the `kubernetes` Endpoints show when KUBE_ADVERTISE_ADDRESS names a host, not an IP.
 */
export function presenceOptionsFromEnv(): PresenceOptions {
  const duration = seconds('KUBE_IDENTITY_LEASE_DURATION_SECONDS', IDENTITY_LEASE_DURATION_SECONDS);
  const ttl = seconds('KUBE_ENDPOINT_RECONCILER_TTL_SECONDS', MASTER_LEASE_TTL_SECONDS);
  return {
    identityLeaseDurationSeconds: duration,
    identityLeaseRenewIntervalMs: seconds('KUBE_IDENTITY_LEASE_RENEW_INTERVAL_SECONDS', IDENTITY_LEASE_RENEW_INTERVAL_MS / 1000) * 1000,
    identityLeaseGcPeriodMs: duration * 1000,
    masterLeaseTtlSeconds: ttl,
    masterLeaseIntervalMs: Math.min(MASTER_LEASE_INTERVAL_MS, Math.floor((ttl * 1000 * 2) / 3)),
    podIp: process.env.KUBE_POD_IP || undefined,
  };
}

export const PRESENCE_OPTIONS = Symbol('PRESENCE_OPTIONS');

/**
 * Who the front door is when it writes its identity Lease through core-api: not system:masters (kube's loopback
 * user is), but a user the bootstrap policy grants Leases in kube-system alone (`system:kube-ts:apiserver-identity`).
 */
export const APISERVER_IDENTITY: BackendIdentity = { user: APISERVER_IDENTITY_USER, groups: ['system:authenticated'] };

const LEASES = `/apis/coordination.k8s.io/v1/namespaces/${IDENTITY_NAMESPACE}/leases`;
const STOP_TIMEOUT_MS = 2000;

/**
 * What makes a front door replica visible as one of the cluster's apiservers (the front door is what clients call
 * "the apiserver"; core-api replicas are its backends):
 *
 * - kube's lease endpoint reconciler, its half: `/registry/masterleases/<ip>:<port>` in etcd under a TTL, refreshed
 *   every 10 s and deleted on a clean stop. core-api rewrites the `kubernetes` Endpoints from those keys
 *   (KubernetesEndpointsController), so a replica killed -9 leaves them when its key expires.
 * - kube's apiserver identity: a coordination.k8s.io Lease `kube-system/apiserver-<hash>` renewed every 10 s
 *   through core-api's API, and kube's apiserverleasegc deleting identity Leases expired (renewTime + duration past).
 */
@Injectable()
export class ApiServerPresence {
  private readonly logger = new Logger('ApiServerPresence');
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private endpoint?: AdvertisedEndpoint;
  private latest?: KubeObject;
  readonly host = hostname();
  leaseName = '';
  holderIdentity = '';

  constructor(
    @Inject(Storage) private readonly storage: Storage,
    @Inject(RoutingTable) private readonly routes: RoutingTable,
    @Inject(BackendAgents) private readonly agents: BackendAgents,
    @Inject(PRESENCE_OPTIONS) private readonly options: PresenceOptions,
  ) {}

  /** Once the front door listens on `port`: records it at once, then keeps every record fresh. */
  start(port: number, bindAddress: string, advertiseAddress?: string): void {
    this.endpoint = advertisedEndpoint(port, bindAddress, advertiseAddress, this.options.podIp);
    this.leaseName = apiServerId(identityHostKey(this.host, port));
    this.holderIdentity = `${this.leaseName}_${randomUUID()}`;
    this.every(this.options.masterLeaseIntervalMs, () => this.recordMasterLease());
    this.every(this.options.identityLeaseRenewIntervalMs, () => this.renewIdentityLease());
    // As kube's wait.Until: a new front door collects what its predecessors left at once, then every period.
    this.every(this.options.identityLeaseGcPeriodMs, () => this.collectExpiredIdentityLeases());
  }

  /** A clean stop: the master lease goes at once (kube's RemoveEndpoints); the identity Lease expires as kube's does. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    if (!this.endpoint) return;
    // Bounded: an unreachable etcd must not hold the shutdown (the record then expires with its TTL).
    let timer: NodeJS.Timeout | undefined;
    const removal = this.storage.client.raw.delete().key(masterLeaseKey(this.endpoint)).exec();
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out after 2 s')), STOP_TIMEOUT_MS)));
    await Promise.race([removal, late])
      .catch((err: Error) => this.logger.warn(`removing master lease: ${err.message}`))
      .finally(() => clearTimeout(timer));
  }

  private every(periodMs: number, fn: () => Promise<void>): void {
    const slot = this.timers.length;
    let failures = 0;
    const tick = async (): Promise<void> => {
      let next = periodMs;
      try {
        await fn();
        failures = 0;
      } catch (err) {
        // Early on core-api may not be routed yet: try again soon (doubling up to the period), not a period later.
        next = Math.min(periodMs, 500 * 2 ** failures++);
        this.logger.warn((err as Error).message);
      }
      if (!this.stopped) this.timers[slot] = setTimeout(() => void tick(), next);
    };
    this.timers.push(setTimeout(() => void tick(), 0));
  }

  /** kube's storageLeases.UpdateLease: the key rewritten under a fresh TTL. */
  async recordMasterLease(): Promise<void> {
    if (!this.endpoint || this.stopped) return;
    const lease = this.storage.client.raw.lease(this.options.masterLeaseTtlSeconds, { autoKeepAlive: false });
    try {
      await lease.put(masterLeaseKey(this.endpoint)).value(masterLeaseValue(this.endpoint));
    } finally {
      lease.release();
    }
  }

  private request(method: string, path: string, body?: unknown): Promise<KubeObject> {
    const route = this.routes.lookup('coordination.k8s.io', 'v1');
    if (route?.kind !== 'proxy') throw new Error('coordination.k8s.io/v1 is not routed to a backend yet');
    return backendRequest(route.target, this.agents, method, path, APISERVER_IDENTITY, body, route.service);
  }

  /** kube's lease controller sync: update the Lease last written; on a conflict or none, read or create it. */
  async renewIdentityLease(): Promise<void> {
    if (!this.leaseName || this.stopped) return;
    const { leaseName: name, holderIdentity, host } = this;
    const duration = this.options.identityLeaseDurationSeconds;
    if (this.latest) {
      try {
        this.latest = await this.request('PUT', `${LEASES}/${name}`, identityLease(this.latest, name, holderIdentity, host, duration));
        return;
      } catch (err) {
        if (!isStatusError(err) || (err.reason !== 'Conflict' && err.reason !== 'NotFound')) throw err;
        this.latest = undefined;
      }
    }
    let existing: KubeObject | undefined;
    try {
      existing = await this.request('GET', `${LEASES}/${name}`);
    } catch (err) {
      if (!isStatusError(err) || err.reason !== 'NotFound') throw err;
    }
    this.latest = existing
      ? await this.request('PUT', `${LEASES}/${name}`, identityLease(existing, name, holderIdentity, host, duration))
      : await this.request('POST', LEASES, identityLease(undefined, name, holderIdentity, host, duration));
  }

  /** kube's apiserverleasegc: every identity Lease expired, checked again by a fresh read before its deletion. */
  async collectExpiredIdentityLeases(): Promise<void> {
    const list = (await this.request('GET', `${LEASES}?labelSelector=${encodeURIComponent(IDENTITY_SELECTOR)}`)) as unknown as KubeList;
    for (const item of list.items ?? []) {
      if (!isLeaseExpired(item)) continue;
      const name = item.metadata.name as string;
      try {
        const fresh = await this.request('GET', `${LEASES}/${name}`);
        if (!isLeaseExpired(fresh)) continue;
        await this.request('DELETE', `${LEASES}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: fresh.metadata.resourceVersion } });
        this.logger.log(`deleted expired apiserver identity lease ${name}`);
      } catch (err) {
        // Another replica's collector got there first: as kube, that is fine.
        if (!isStatusError(err) || (err.reason !== 'NotFound' && err.reason !== 'Conflict')) throw err;
      }
    }
  }
}
