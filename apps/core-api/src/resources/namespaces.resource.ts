/** core/v1 Namespace (pkg/registry/core/namespace/strategy.go). */
import { FieldError, validateFinalizerName as validateQualifiedFinalizer, type KubeObject } from '@kube/apimachinery';
import { namespaceFinalizeSubresource, statusSubresource, type ResourceDefinition, type ResourceStrategy } from '@kube/apiserver';
import { child, ensureRecord, listOf } from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

export const FINALIZER_KUBERNETES = 'kubernetes';
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: unknown[] };
}

const STANDARD_FINALIZERS: readonly string[] = [FINALIZER_KUBERNETES, 'orphan', 'foregroundDeletion'];

/** validateFinalizerName: a standard name, or a qualified name with a '/'. */
function validateNamespaceFinalizer(name: string, path: string): FieldError[] {
  const errs = validateQualifiedFinalizer(name, path);
  if (!name.includes('/') && !STANDARD_FINALIZERS.includes(name)) {
    errs.push(FieldError.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

function validateNamespace(ns: Namespace): FieldError[] {
  // kube reports every finalizer at "spec.finalizers", without an index.
  const finalizersPath = child('spec', 'finalizers');
  return listOf(ns.spec?.finalizers).flatMap((f) => validateNamespaceFinalizer(f, finalizersPath));
}

/** SetDefaults_Namespace and Canonicalize: the kubernetes.io/metadata.name label always equals the name. */
function labelWithName(obj: KubeObject): void {
  const name = obj.metadata.name;
  if (name) obj.metadata.labels = { ...obj.metadata.labels, [LABEL_METADATA_NAME]: name };
}

export const namespaceStrategy: ResourceStrategy = {
  // kube's strategy: a PUT of a missing object is 404, not a create.
  allowCreateOnUpdate: false,
  default: labelWithName,
  /** New namespaces are Active and carry the "kubernetes" finalizer. */
  prepareForCreate(obj: KubeObject): void {
    const ns = obj as Namespace;
    labelWithName(ns); // again: a generated name is only known now
    const spec = ensureRecord<NonNullable<Namespace['spec']>>(ns, 'spec');
    const finalizers = listOf(spec.finalizers);
    spec.finalizers = finalizers.includes(FINALIZER_KUBERNETES) ? [...finalizers] : [...finalizers, FINALIZER_KUBERNETES];
    ns.status = { phase: 'Active' };
  },
  /** Finalizers change only through /finalize, status only through /status. */
  prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    const ns = obj as Namespace;
    const prev = old as Namespace;
    ns.spec = { ...ns.spec, finalizers: prev.spec?.finalizers };
    if (ns.spec.finalizers === undefined) delete ns.spec.finalizers;
    ns.status = prev.status;
  },
  validate: (obj: KubeObject) => validateNamespace(obj as Namespace),
  validateUpdate: (obj: KubeObject) => validateNamespace(obj as Namespace),
  fields(obj: KubeObject): Record<string, string> {
    const ns = obj as Namespace;
    return { 'status.phase': ns.status?.phase ?? '', name: ns.metadata.name ?? '' };
  },
  unknownFieldLabel: fieldLabelNotSupported,
};

export const namespacesResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  nameValidation: 'label',
  subresources: { status: statusSubresource(), finalize: namespaceFinalizeSubresource },
  strategy: namespaceStrategy,
  tableColumns: [
    {
      name: 'Status',
      type: 'string',
      description: 'The status of the namespace',
      cell: (obj: KubeObject) => (obj as Namespace).status?.phase ?? '',
    },
  ],
};
