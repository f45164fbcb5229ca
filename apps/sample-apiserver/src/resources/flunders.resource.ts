/** wardle.example.com/v1alpha1 Flunder: kube's sample-apiserver defaulting and validation, with printer columns. */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition, type ResourceStrategy } from '@kube/apiserver';
import { FLUNDER_SCHEMA, wardleV1alpha1Components } from '../openapi/wardle-v1alpha1.schemas';
import { REFERENCE_TYPES, WARDLE_GROUP, WARDLE_VERSION, type Flunder, type ReferenceType } from '../wardle.types';

/** SetDefaults_FlunderSpec: a reference without a type refers to a Flunder. */
export function defaultFlunder(flunder: Flunder): void {
  const spec = flunder.spec;
  if (spec?.reference && !spec.referenceType) spec.referenceType = 'Flunder';
}

function isReferenceType(value: string): value is ReferenceType {
  return (REFERENCE_TYPES as readonly string[]).includes(value);
}

/**
 * ValidateFlunderSpec after defaulting: a reference type needs a reference (a reference without a type was
 * defaulted to Flunder above), and the type is Flunder or Fischer. kube validates the internal version and so
 * names its internal fields (spec.flunderReference); we name the v1alpha1 field the client actually sent.
 */
export function validateFlunder(flunder: Flunder): FieldError[] {
  const { reference = '', referenceType = '' } = flunder.spec ?? {};
  if (referenceType && !isReferenceType(referenceType)) {
    return [FieldError.invalid('spec.referenceType', referenceType, 'must be Flunder or Fischer')];
  }
  if (referenceType && !reference) return [FieldError.required('spec.reference', `cannot be empty if referenceType is ${referenceType}`)];
  return [];
}

export const flunderStrategy: ResourceStrategy = {
  default: (obj: KubeObject) => defaultFlunder(obj as Flunder),
  validate: (obj: KubeObject) => validateFlunder(obj as Flunder),
  // kube's sample accepts any update; checking the spec again keeps stored Flunders valid.
  validateUpdate: (obj: KubeObject) => validateFlunder(obj as Flunder),
};

export const flundersResource: ResourceDefinition = {
  group: WARDLE_GROUP,
  version: WARDLE_VERSION,
  kind: 'Flunder',
  plural: 'flunders',
  singular: 'flunder',
  namespaced: true,
  subresources: { status: statusSubresource() },
  schema: { name: FLUNDER_SCHEMA, components: wardleV1alpha1Components },
  strategy: flunderStrategy,
  tableColumns: [
    {
      name: 'Reference',
      type: 'string',
      description: 'A name of another flunder or fischer, depending on the reference type.',
      cell: (obj: KubeObject) => (obj as Flunder).spec?.reference ?? '',
    },
    {
      name: 'Type',
      type: 'string',
      description: 'The reference type, defaults to "Flunder" if reference is set.',
      cell: (obj: KubeObject) => (obj as Flunder).spec?.referenceType ?? '',
    },
  ],
};
