import type { KubeObject } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '@kube/apiserver';
import { RBAC_GROUP, type ClusterRole, type EscalationCheck, type RoleBinding } from '@kube/authorization';
import { semanticEqual } from './validation.helpers';

/** IsOnlyMutatingGCFields: a write that touches only ownerReferences or finalizers is never an escalation. */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => {
    const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, generation: _g, ...meta } = o.metadata;
    return { ...o, metadata: meta };
  };
  return semanticEqual(strip(obj), strip(old));
}

/**
 * kube's RBAC escalation prevention (the policy-based storage of roles and bindings), run where core-api runs
 * validation: before anything is written, dry runs included.
 */
export class RbacEscalationAdmission implements AdmissionPlugin {
  readonly name = 'RBACEscalation';

  constructor(private readonly check: EscalationCheck) {}

  async validate(attrs: AdmissionAttributes): Promise<void> {
    const { resource, object, oldObject, ctx } = attrs;
    if (resource.group !== RBAC_GROUP || !object || (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE')) return;
    if (oldObject && onlyGCFields(object, oldObject)) return;
    const name = object.metadata.name ?? '';
    switch (resource.plural) {
      case 'roles':
      case 'clusterroles': {
        const role = object as ClusterRole;
        const aggregationChanged = !!role.aggregationRule && !semanticEqual(role.aggregationRule, (oldObject as ClusterRole | undefined)?.aggregationRule);
        await this.check.checkRole(ctx.user, resource.plural, attrs.namespace, attrs.operation === 'UPDATE' ? name : '', name, role.rules ?? [], aggregationChanged);
        return;
      }
      case 'rolebindings':
      case 'clusterrolebindings':
        await this.check.checkBinding(ctx.user, resource.plural, attrs.namespace, name, (object as RoleBinding).roleRef);
        return;
    }
  }
}
