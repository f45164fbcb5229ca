import type { KubeObject } from '@kube/apimachinery';
import type { ControllerContext, ManagedController } from '../controller.context';
import { NamespaceObjectController } from './namespace-objects.controller';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * kube's root-CA certificate publisher (pkg/controller/certificates/rootcacertpublisher): the `kube-root-ca.crt`
 * ConfigMap with `ca.crt` in every namespace, put back when deleted and when its data or description drifts.
 */
export function rootCaPublisher(ctx: ControllerContext): ManagedController {
  const data = { 'ca.crt': ctx.rootCaPem };
  return new NamespaceObjectController(ctx, {
    controllerName: 'root-ca-cert-publisher',
    resource: { group: '', version: 'v1', resource: 'configmaps', namespaced: true },
    name: ROOT_CA_CONFIGMAP,
    desired: (namespace) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data }),
    reconcile: (existing: KubeObject) => {
      const current = existing.data as Record<string, string> | undefined;
      const annotations = existing.metadata.annotations ?? {};
      const sameData = current && Object.keys(current).length === 1 && current['ca.crt'] === data['ca.crt'];
      if (sameData && annotations[DESCRIPTION_ANNOTATION] === DESCRIPTION) return undefined;
      return { ...existing, metadata: { ...existing.metadata, annotations: { ...annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data };
    },
  });
}
