import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { Watcher } from 'etcd3';
import type { KubeObject } from '@kube/apimachinery';
import { Controller, ItemExponentialFailureRateLimiter, type ReconcileResult } from '@kube/client';
import { GenericApiServer, HealthChecks, SERVER_CONFIG, nowTimestamp, type ServerConfig } from '@kube/apiserver';

/** Where each live front door records itself (apps/aggregator ApiServerPresence), as kube's lease endpoint reconciler. */
export const MASTER_LEASES_PREFIX = '/registry/masterleases/';
/** kube's EndpointInterval: every apiserver reconciles the `kubernetes` Endpoints this often. */
const RECONCILE_INTERVAL_MS = 10_000;
const KEY = 'kubernetes';
const SERVICE = 'kubernetes';
const NAMESPACE = 'default';
const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** One live apiserver's address: kube's master lease names an IP; front doors sharing an IP differ by port. */
export interface ApiServerAddress {
  ip: string;
  port: number;
}

/** The address in a master lease's value (an Endpoints with one address and its port); undefined if unreadable. */
export function parseMasterLease(value: string): ApiServerAddress | undefined {
  try {
    const ep = JSON.parse(value) as { subsets?: Array<{ addresses?: Array<{ ip?: string }>; ports?: Array<{ port?: number }> }> };
    const ip = ep.subsets?.[0]?.addresses?.[0]?.ip;
    const port = ep.subsets?.[0]?.ports?.[0]?.port;
    return typeof ip === 'string' && isIPv4(ip) && Number.isInteger(port) && (port as number) > 0 ? { ip, port: port as number } : undefined;
  } catch {
    return undefined;
  }
}

/** Addresses by port, ports ascending, IPs sorted in each: kube's RepackSubsets for one port per apiserver. */
function byPort(addresses: readonly ApiServerAddress[]): Array<{ port: number; ips: string[] }> {
  const groups = new Map<number, Set<string>>();
  for (const a of addresses) groups.set(a.port, (groups.get(a.port) ?? new Set()).add(a.ip));
  return [...groups]
    .sort(([a], [b]) => a - b)
    .map(([port, ips]) => ({ port, ips: [...ips].sort((x, y) => x.localeCompare(y, 'en', { numeric: true })) }));
}

const endpointPort = (port: number): { name: string; port: number; protocol: string } => ({ name: 'https', port, protocol: 'TCP' });

export interface EndpointSubset {
  addresses: Array<{ ip: string }>;
  ports: Array<{ name: string; port: number; protocol: string }>;
}

/** The `kubernetes` Endpoints' subsets for the live apiservers (one subset when they share a port, as in kube). */
export function kubernetesSubsets(addresses: readonly ApiServerAddress[]): EndpointSubset[] {
  return byPort(addresses).map((g) => ({ addresses: g.ips.map((ip) => ({ ip })), ports: [endpointPort(g.port)] }));
}

/**
 * The EndpointSlices of the `kubernetes` Service (kube's EndpointsAdapter): `kubernetes` for the first port; front
 * doors on other ports of one host (npm start's replicas) get `kubernetes-<port>`, a slice having one port list.
 */
export function kubernetesSlices(addresses: readonly ApiServerAddress[]): KubeObject[] {
  return byPort(addresses).map((g, i) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: i === 0 ? SERVICE : `${SERVICE}-${g.port}`, namespace: NAMESPACE, labels: { [SERVICE_NAME_LABEL]: SERVICE } },
    addressType: 'IPv4',
    endpoints: g.ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [endpointPort(g.port)],
  }));
}

const json = (v: unknown): string => JSON.stringify(v ?? null);

/**
 * kube's kubernetesservice controller with the lease endpoint reconciler, core-api's half: every replica rewrites
 * the `kubernetes` Endpoints and EndpointSlice to the front doors recorded under /registry/masterleases/ (each under
 * an etcd TTL its front door refreshes), on every change of those keys and every 10 s. No key at all (core-api run
 * without a front door, or every front door gone): kube refuses to erase the Endpoints, and so do we; when there
 * are none yet they name this server, as before front doors recorded themselves. Written to storage directly:
 * locally the addresses are loopback, which Endpoints validation rightly refuses for user-created objects.
 */
@Injectable()
export class KubernetesEndpointsController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('KubernetesEndpoints');
  private readonly controller = new Controller({ name: 'KubernetesEndpoints', reconcile: () => this.reconcileLoop(), rateLimiter: new ItemExponentialFailureRateLimiter(200, RECONCILE_INTERVAL_MS) });
  private watcher?: Watcher;
  private stopped = false;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    void this.controller.run();
    void this.watchMasterLeases();
    await this.health.addPostStartHook('start-kubernetes-service-endpoints', () => this.controller.sync(KEY));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.watcher?.cancel().catch(() => undefined);
    await this.controller.shutDown();
  }

  /** A front door recorded, stopped or expired: reconcile now rather than at the next interval. */
  private async watchMasterLeases(): Promise<void> {
    try {
      const w = await this.server.storage.client.raw.watch().prefix(MASTER_LEASES_PREFIX).create();
      if (this.stopped) return void w.cancel();
      this.watcher = w;
      w.on('put', () => this.controller.enqueue(KEY));
      w.on('delete', () => this.controller.enqueue(KEY));
      // etcd3 re-establishes the watch itself; the periodic pass covers what a broken one missed.
      w.on('error', () => undefined);
    } catch (err) {
      this.logger.warn(`watching ${MASTER_LEASES_PREFIX}: ${(err as Error).message}; reconciling every ${RECONCILE_INTERVAL_MS / 1000} s only`);
    }
  }

  private async reconcileLoop(): Promise<ReconcileResult> {
    await this.reconcile();
    return { requeueAfterMs: RECONCILE_INTERVAL_MS };
  }

  /** The live front doors (kube's storageLeases.ListLeases). */
  async liveApiServers(): Promise<ApiServerAddress[]> {
    const values = await this.server.storage.client.raw.getAll().prefix(MASTER_LEASES_PREFIX).strings();
    return Object.values(values)
      .map(parseMasterLease)
      .filter((a): a is ApiServerAddress => a !== undefined);
  }

  async reconcile(): Promise<void> {
    const live = await this.liveApiServers();
    const endpoints = this.server.handler('', 'endpoints').store;
    const current = await endpoints.tryGet(NAMESPACE, SERVICE);
    if (!live.length && current) return;
    const addresses = live.length ? live : [this.ownAddress()];
    const subsets = kubernetesSubsets(addresses);
    await endpoints.guaranteedUpdate(
      NAMESPACE,
      SERVICE,
      (cur) => {
        if (cur && json(cur.subsets) === json(subsets) && cur.metadata.labels?.[SKIP_MIRROR] === 'true') return cur;
        const next: KubeObject = cur ? structuredClone(cur) : this.fresh('v1', 'Endpoints');
        next.metadata.labels = { ...(next.metadata.labels ?? {}), [SKIP_MIRROR]: 'true' };
        next.subsets = subsets;
        return next;
      },
      { ignoreNotFound: true },
    );
    await this.reconcileSlices(addresses);
    await this.reconcileServicePort(byPort(addresses)[0].port);
  }

  /**
   * The Service's targetPort follows the apiservers' port (kube's kubernetesservice controller sets it to the
   * secure port): the front doors', once they have recorded themselves. Left alone while the Service is not made.
   */
  private async reconcileServicePort(port: number): Promise<void> {
    const services = this.server.handler('', 'services').store;
    type ServicePort = { name?: string; port?: number; targetPort?: number | string };
    const wrong = (svc: KubeObject): boolean => ((svc.spec as { ports?: ServicePort[] } | undefined)?.ports ?? []).some((p) => p.name === 'https' && p.targetPort !== port);
    const svc = await services.tryGet(NAMESPACE, SERVICE);
    if (!svc || !wrong(svc)) return;
    // Without ignoreNotFound a missing Service is a 404 before tryUpdate runs.
    await services.guaranteedUpdate(NAMESPACE, SERVICE, (found) => {
      const cur = found as KubeObject;
      if (!wrong(cur)) return cur;
      const next = structuredClone(cur);
      for (const p of (next.spec as { ports: ServicePort[] }).ports) if (p.name === 'https') p.targetPort = port;
      return next;
    });
  }

  /** kube's EndpointsAdapter: the desired slices written when they differ, other slices of the Service deleted. */
  private async reconcileSlices(addresses: readonly ApiServerAddress[]): Promise<void> {
    const slices = this.server.handler('discovery.k8s.io', 'endpointslices').store;
    const desired = kubernetesSlices(addresses);
    const names = new Set(desired.map((s) => s.metadata.name as string));
    for (const want of desired) {
      await slices.guaranteedUpdate(
        NAMESPACE,
        want.metadata.name as string,
        (cur) => {
          if (cur && json(cur.endpoints) === json(want.endpoints) && json(cur.ports) === json(want.ports) && json(cur.metadata.labels) === json(want.metadata.labels)) return cur;
          const next: KubeObject = cur ? structuredClone(cur) : this.fresh('discovery.k8s.io/v1', 'EndpointSlice', want.metadata.name as string);
          next.metadata.labels = want.metadata.labels;
          next.addressType = want.addressType;
          next.endpoints = want.endpoints;
          next.ports = want.ports;
          return next;
        },
        { ignoreNotFound: true },
      );
    }
    const all = await slices.list(NAMESPACE, {});
    for (const s of all.items) {
      if (s.metadata.labels?.[SERVICE_NAME_LABEL] !== SERVICE || names.has(s.metadata.name as string)) continue;
      await slices.delete(NAMESPACE, s.metadata.name as string).catch(() => undefined);
    }
  }

  private fresh(apiVersion: string, kind: string, name = SERVICE): KubeObject {
    return { apiVersion, kind, metadata: { name, namespace: NAMESPACE, uid: randomUUID(), creationTimestamp: nowTimestamp() } };
  }

  /** This server's own address: what the Endpoints named before front doors recorded themselves. */
  private ownAddress(): ApiServerAddress {
    const bind = this.config.server.bindAddress;
    return { ip: isIPv4(bind) && bind !== '0.0.0.0' ? bind : '127.0.0.1', port: this.config.server.port };
  }
}
