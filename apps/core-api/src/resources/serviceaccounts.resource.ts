/** core/v1 ServiceAccount (pkg/registry/core/serviceaccount/strategy.go). */
import type { KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';
import { isRecord, listOf } from './validation.helpers';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface ServiceAccount extends KubeObject {
  secrets?: ObjectReference[];
  imagePullSecrets?: { name?: string }[];
  automountServiceAccountToken?: boolean;
}

/** cleanSecretReferences: secret references keep only their name. */
function cleanSecretReferences(obj: KubeObject): void {
  const sa = obj as ServiceAccount;
  if (sa.secrets === undefined) return;
  sa.secrets = listOf(sa.secrets).map((ref): ObjectReference => {
    const name = isRecord(ref) ? ref.name : undefined;
    return typeof name === 'string' ? { name } : {};
  });
}

export const serviceAccountStrategy: ResourceStrategy = {
  // kube's strategy: a PUT of a missing object is 404, not a create.
  allowCreateOnUpdate: false,
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate: cleanSecretReferences,
};

export const serviceAccountsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  namespaced: true,
  strategy: serviceAccountStrategy,
  tableColumns: [
    {
      name: 'Secrets',
      type: 'integer',
      description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      cell: (obj: KubeObject) => listOf((obj as ServiceAccount).secrets).length,
    },
  ],
};
