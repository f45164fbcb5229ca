import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, resourcePath, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../controller.context';

/** What one object kept in every namespace needs: where it lives, its name, and what it should be. */
export interface PerNamespaceObject {
  controllerName: string;
  resource: ResourcePath & { group: string };
  name: string;
  /** The object to create in `namespace`. */
  desired(namespace: string): KubeObject;
  /** For objects kept in sync (not only created): the object updated to what it should be, or undefined when it is. */
  reconcile?(existing: KubeObject): KubeObject | undefined;
}

/**
 * The shape kube's ServiceAccounts controller and root-CA publisher share: one named object in every active
 * namespace, created when missing (and, where `reconcile` says so, kept in sync), driven by the namespaces
 * informer and the informer of the object's resource. Terminating namespaces are skipped.
 */
export class NamespaceObjectController implements ManagedController {
  readonly name: string;
  readonly controller: Controller;
  private readonly namespaces: SharedIndexInformer;
  private readonly objects: SharedIndexInformer;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly spec: PerNamespaceObject,
  ) {
    this.name = spec.controllerName;
    this.namespaces = ctx.informers.informerFor({ group: '', resource: 'namespaces' });
    this.objects = ctx.informers.informerFor({ group: spec.resource.group, resource: spec.resource.resource });
    this.controller = new Controller({ name: spec.controllerName, reconcile: (ns) => this.sync(ns), waitFor: [this.namespaces, this.objects], workers: 2 });
    const enqueueNs = (ns: KubeObject): void => this.controller.enqueue(ns.metadata.name as string);
    this.namespaces.addEventHandler({ add: enqueueNs, update: (_, ns) => enqueueNs(ns) });
    const enqueueOwn = (obj: KubeObject): void => {
      if (obj.metadata.name === spec.name && obj.metadata.namespace) this.controller.enqueue(obj.metadata.namespace);
    };
    this.objects.addEventHandler({ delete: enqueueOwn, ...(spec.reconcile ? { update: (_: KubeObject, obj: KubeObject) => enqueueOwn(obj) } : {}) });
  }

  start(): Promise<void> {
    return this.controller.run();
  }

  stop(): Promise<void> {
    return this.controller.shutDown();
  }

  private async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.lister.get(namespace);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') return;
    const existing = this.objects.lister.get(`${namespace}/${this.spec.name}`);
    try {
      if (!existing) {
        await this.ctx.client.request('POST', resourcePath(this.spec.resource, namespace), { body: this.spec.desired(namespace) });
        return;
      }
      const updated = this.spec.reconcile?.(existing);
      if (updated) await this.ctx.client.request('PUT', resourcePath(this.spec.resource, namespace, this.spec.name), { body: updated });
    } catch (err) {
      // Already there (the informer lags), or the namespace is going away: nothing to do.
      if (isStatusError(err) && (err.code === 409 || err.code === 404 || (err.code === 403 && /terminat/i.test(err.message)))) return;
      throw err;
    }
  }
}
