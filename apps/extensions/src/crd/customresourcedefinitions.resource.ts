/** apiextensions.k8s.io/v1 CustomResourceDefinition, the built-in kind the extensions server serves. */
import { AGE_COLUMN, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceHooks, TableColumn } from '@kube/apiserver';
import { apiextensionsV1Components, CUSTOM_RESOURCE_DEFINITION_SCHEMA } from '../openapi';
import { customResourceDefinitionStatus, customResourceDefinitionStrategy } from './crd.strategy';
import {
  APIEXTENSIONS_GROUP,
  APIEXTENSIONS_VERSION,
  CUSTOM_RESOURCE_CLEANUP_FINALIZER,
  setCondition,
  type CustomResourceDefinition,
} from './crd.types';

/** What Go prints for a zero metav1.Time in RFC 3339. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** creationTimestamp.Time.UTC().Format(time.RFC3339), as rest.NewDefaultTableConvertor prints it. */
export function createdAt(timestamp: string | undefined): string {
  const t = timestamp ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(t) ? ZERO_TIME : new Date(t).toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * kube serves CRDs through the default table convertor: NAME and "Created At", a date printed as a
 * timestamp rather than an age. The column description is ObjectMeta's creationTimestamp doc, which
 * AGE_COLUMN carries too.
 */
export const createdAtColumn: TableColumn = {
  name: 'Created At',
  type: 'date',
  description: AGE_COLUMN.description,
  cell: (obj: KubeObject) => createdAt(obj.metadata.creationTimestamp),
};

/**
 * The CRD REST Delete: the first DELETE only marks the CRD (deletionTimestamp, cleanup finalizer,
 * Terminating=True) so the finalizer controller can remove every custom resource first.
 */
export const customResourceDefinitionHooks: ResourceHooks = {
  pendingFinalizers: (obj: KubeObject) => !obj.metadata.deletionTimestamp,
  onDeletionStarted: (obj: KubeObject) => {
    const finalizers = (obj.metadata.finalizers ??= []);
    if (!finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) finalizers.push(CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    setCondition(obj as CustomResourceDefinition, {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
  },
};

export const customResourceDefinitionsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: APIEXTENSIONS_GROUP,
  version: APIEXTENSIONS_VERSION,
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  subresources: { status: customResourceDefinitionStatus },
  schema: { name: CUSTOM_RESOURCE_DEFINITION_SCHEMA, components: apiextensionsV1Components },
  tableColumns: [createdAtColumn],
  tableAge: false,
  strategy: customResourceDefinitionStrategy,
  // DNS subdomain; the `<plural>.<group>` rule is part of the strategy's validation.
  nameValidation: 'subdomain',
  hooks: customResourceDefinitionHooks,
};
