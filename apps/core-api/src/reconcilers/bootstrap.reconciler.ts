import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, ItemExponentialFailureRateLimiter, type ReconcileResult } from '@kube/client';
import { GenericApiServer, HealthChecks, SERVER_CONFIG, type ServerConfig } from '@kube/apiserver';
import { ServiceAllocator } from '../allocation/service.allocator';
import { SYSTEM_PRIORITY_CLASSES } from '../resources/scheduling.resources';
import { SYSTEM_WRITE, systemContext } from './system.context';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const RECONCILE_INTERVAL_MS = 60_000;
/** How long a failed create looks for the same object written by another replica (see ensure). */
const RACE_RECHECKS = 20;
const RACE_RECHECK_MS = 100;

/** The one key of the bootstrap controller's queue: it reconciles the whole bootstrap state at once. */
const KEY = 'bootstrap';

/**
 * kube's bootstrap controller: the system namespaces, the system PriorityClasses, the `kubernetes` Service in `default` on the first
 * service IP (its Endpoints: KubernetesEndpointsController); then repairs the IP/port allocations. Runs at start
 * (the `bootstrap-controller` post-start hook: start-up waits for, and fails with, the first pass), then every
 * RECONCILE_INTERVAL_MS, failures retried with backoff.
 */
@Injectable()
export class BootstrapController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BootstrapController');
  private readonly controller = new Controller({ name: 'BootstrapController', reconcile: () => this.reconcileLoop(), rateLimiter: new ItemExponentialFailureRateLimiter(500, RECONCILE_INTERVAL_MS) });

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(ServiceAllocator) private readonly allocator: ServiceAllocator,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    void this.controller.run();
    await this.health.addPostStartHook('bootstrap-controller', () => this.controller.sync(KEY));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  private async reconcileLoop(): Promise<ReconcileResult> {
    await this.reconcile();
    return { requeueAfterMs: RECONCILE_INTERVAL_MS };
  }

  async reconcile(): Promise<void> {
    for (const name of SYSTEM_NAMESPACES) await this.ensure('namespaces', undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    // kube's scheduling/bootstrap-system-priority-classes post-start hook.
    for (const pc of SYSTEM_PRIORITY_CLASSES) await this.ensure('priorityclasses', undefined, structuredClone(pc), 'scheduling.k8s.io');
    await this.ensure('services', 'default', this.kubernetesService());
    const repaired = await this.allocator.repair(async () => (await this.server.handler('', 'services').list(undefined, {})).items);
    if (repaired.restored || repaired.released) this.logger.log(`allocation repair: restored ${repaired.restored}, released ${repaired.released}`);
  }

  private async ensure(resource: string, namespace: string | undefined, obj: KubeObject, group = ''): Promise<void> {
    const handler = this.server.handler(group, resource);
    if (await handler.store.tryGet(namespace, obj.metadata.name as string)) return;
    try {
      await handler.create(systemContext(), namespace, obj as never, SYSTEM_WRITE);
    } catch (err) {
      if (isStatusError(err) && err.reason === 'AlreadyExists') return;
      // Another replica's bootstrap may be creating the same object: the `kubernetes` Service's fixed clusterIP is
      // then already claimed (422) a moment before that Service is stored. Its object standing is success.
      for (let i = 0; i < RACE_RECHECKS; i++) {
        if (await handler.store.tryGet(namespace, obj.metadata.name as string)) return;
        await new Promise((r) => setTimeout(r, RACE_RECHECK_MS));
      }
      throw err;
    }
  }

  private get securePort(): number {
    return this.config.server.port;
  }

  private kubernetesService(): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: this.allocator.ipRange.at(0), ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: this.securePort }], sessionAffinity: 'None' },
    };
  }
}
