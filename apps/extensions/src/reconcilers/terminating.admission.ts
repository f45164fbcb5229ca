import { Errors } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '@kube/apiserver';

/**
 * Custom resources whose CRD is being deleted ("<plural>.<group>"): creating new ones is refused with 405, as
 * kube does while the cleanup finalizer empties the resource.
 */
export class TerminatingCustomResources extends Set<string> implements AdmissionPlugin {
  readonly name = 'CustomResourceDefinitionTerminating';

  validate(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || !this.has(`${a.resource.plural}.${a.resource.group}`)) return;
    throw Errors.methodNotSupported({ group: a.resource.group, resource: a.resource.plural }, 'create');
  }
}
