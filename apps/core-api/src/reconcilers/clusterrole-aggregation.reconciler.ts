import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { GenericApiServer } from '@kube/apiserver';
import { isStatusError } from '@kube/apimachinery';
import { Controller } from '@kube/client';
import { aggregatedRules, RBAC_GROUP, sameRules, type AuthorizationSet, type ClusterRole } from '@kube/authorization';
import { AUTHORIZATION } from '../core-api.tokens';
import { SYSTEM_WRITE, systemContext } from './system.context';

/**
 * kube-controller-manager's clusterrole-aggregation controller (pkg/controller/clusterroleaggregation), kept in
 * core-api until a controller manager exists: every ClusterRole with an aggregationRule holds the union of the
 * rules of the ClusterRoles its selectors match. Any ClusterRole change re-syncs every aggregated role, from
 * the informer's index, on the shared controller loop (retry with backoff).
 */
@Injectable()
export class ClusterRoleAggregationController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly controller = new Controller({ name: 'ClusterRoleAggregationController', reconcile: (name) => this.sync(name) });

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(AUTHORIZATION) private readonly authz: AuthorizationSet,
  ) {}

  onApplicationBootstrap(): void {
    this.authz.informer.onEvent((kind) => {
      if (kind === 'ClusterRole') this.enqueueAll();
    });
    void this.authz.start().then(() => {
      this.enqueueAll();
      return this.controller.run();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  private enqueueAll(): void {
    for (const role of this.authz.informer.index.allClusterRoles) if (role.aggregationRule) this.controller.enqueue(role.metadata.name as string);
  }

  private async sync(name: string): Promise<void> {
    const index = this.authz.informer.index;
    const role = index.clusterRole(name);
    if (!role) return;
    const rules = aggregatedRules(role, index.allClusterRoles);
    if (!rules || sameRules(rules, role.rules)) return;
    const handler = this.server.handler(RBAC_GROUP, 'clusterroles');
    const current = (await handler.get(undefined, name).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)))) as ClusterRole | undefined;
    if (!current) return;
    await handler.update(systemContext(), undefined, name, { ...current, rules } as never, SYSTEM_WRITE);
  }
}

function isNotFound(err: unknown): boolean {
  return isStatusError(err) && err.code === 404;
}
