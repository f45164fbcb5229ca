import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError } from '@kube/apimachinery';
import { GenericApiServer } from '@kube/apiserver';
import { aggregatedRules, RBAC_GROUP, sameRules, type AuthorizationSet, type ClusterRole } from '@kube/authorization';
import { AUTHORIZATION } from '../core-api.tokens';
import { SYSTEM_WRITE, systemContext } from './system.context';

const RETRY_MS = 500;

/**
 * kube-controller-manager's clusterrole-aggregation controller (pkg/controller/clusterroleaggregation), kept in
 * core-api until a controller manager exists: every ClusterRole with an aggregationRule holds the union of the
 * rules of the ClusterRoles its selectors match. Any ClusterRole change re-syncs every aggregated role, from
 * the informer's index.
 */
@Injectable()
export class ClusterRoleAggregationController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ClusterRoleAggregation');
  private readonly queue = new Set<string>();
  private draining = false;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(AUTHORIZATION) private readonly authz: AuthorizationSet,
  ) {}

  onApplicationBootstrap(): void {
    this.authz.informer.onEvent((kind) => {
      if (kind === 'ClusterRole') this.enqueueAll();
    });
    void this.authz.start().then(() => this.enqueueAll());
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private enqueueAll(): void {
    for (const role of this.authz.informer.index.allClusterRoles) if (role.aggregationRule) this.queue.add(role.metadata.name as string);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.size && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        try {
          await this.sync(name);
        } catch (err) {
          if (!(isStatusError(err) && err.code === 404)) {
            this.logger.warn(`clusterrole ${name}: ${(err as Error).message}`);
            this.retryLater(name);
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private retryLater(name: string): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.queue.add(name);
      void this.drain();
    }, RETRY_MS);
  }

  private async sync(name: string): Promise<void> {
    const index = this.authz.informer.index;
    const role = index.clusterRole(name);
    if (!role) return;
    const rules = aggregatedRules(role, index.allClusterRoles);
    if (!rules || sameRules(rules, role.rules)) return;
    const handler = this.server.handler(RBAC_GROUP, 'clusterroles');
    const current = (await handler.get(undefined, name)) as ClusterRole;
    await handler.update(systemContext(), undefined, name, { ...current, rules } as never, SYSTEM_WRITE);
  }
}
