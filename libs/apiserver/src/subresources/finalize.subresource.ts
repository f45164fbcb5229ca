import type { KubeObject } from '@kube/apimachinery';
import type { SubresourceStrategy } from './subresource.strategy';

/**
 * A namespace's `/finalize`: writes through it change only `spec.finalizers` (the namespace controller removes
 * `kubernetes` there once the namespace is empty). Served but, as today, not listed in discovery.
 */
export const namespaceFinalizeSubresource: SubresourceStrategy = {
  verbs: ['get', 'patch', 'update'],
  discovered: false,
  prepareForUpdate(incoming, old) {
    const obj: KubeObject = structuredClone(old);
    const spec = (incoming.spec ?? {}) as Record<string, unknown>;
    obj.spec = { ...(obj.spec as Record<string, unknown>), finalizers: spec.finalizers ?? [] };
    return obj;
  },
};
