import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { aggregatedRules, sameRules, type ClusterRole } from '@kube/authorization';
import { Controller, resourcePath } from '@kube/client';
import type { ControllerContext, ManagedController } from '../controller.context';

const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', namespaced: false };

/**
 * kube's clusterrole-aggregation controller (pkg/controller/clusterroleaggregation): every ClusterRole with an
 * aggregationRule holds the union of the rules of the ClusterRoles its selectors match. Any ClusterRole change
 * re-syncs every aggregated role from the informer's cache.
 */
export class ClusterRoleAggregationController implements ManagedController {
  readonly name = 'clusterrole-aggregation-controller';
  readonly controller: Controller;

  constructor(private readonly ctx: ControllerContext) {
    const roles = ctx.informers.informerFor({ group: CLUSTER_ROLES.group, resource: 'clusterroles' });
    this.controller = new Controller({ name: 'ClusterRoleAggregator', reconcile: (name) => this.sync(name), waitFor: [roles] });
    const enqueueAll = (): void => {
      for (const role of roles.lister.list()) if ((role as ClusterRole).aggregationRule) this.controller.enqueue(role.metadata.name as string);
    };
    roles.addEventHandler({ add: enqueueAll, update: enqueueAll, delete: enqueueAll });
  }

  start(): Promise<void> {
    return this.controller.run();
  }

  stop(): Promise<void> {
    return this.controller.shutDown();
  }

  private async sync(name: string): Promise<void> {
    const roles = this.ctx.informers.informerFor({ group: CLUSTER_ROLES.group, resource: 'clusterroles' }).lister;
    const role = roles.get(name) as ClusterRole | undefined;
    if (!role) return;
    const rules = aggregatedRules(role, roles.list() as ClusterRole[]);
    if (!rules || sameRules(rules, role.rules)) return;
    try {
      await this.ctx.client.request<KubeObject>('PUT', resourcePath(CLUSTER_ROLES, undefined, name), { body: { ...role, rules } });
    } catch (err) {
      // A stale cache: the update event of the newer object queues the role again.
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
