import type { ControllerContext, ManagedController } from '../controller.context';
import { NamespaceObjectController } from './namespace-objects.controller';

/** kube's ServiceAccountsController (pkg/controller/serviceaccount): a `default` ServiceAccount in every active namespace. */
export function serviceAccountsController(ctx: ControllerContext): ManagedController {
  return new NamespaceObjectController(ctx, {
    controllerName: 'serviceaccount-controller',
    resource: { group: '', version: 'v1', resource: 'serviceaccounts', namespaced: true },
    name: 'default',
    desired: (namespace) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } }),
  });
}
