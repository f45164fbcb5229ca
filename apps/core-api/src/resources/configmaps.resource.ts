/** core/v1 ConfigMap (ValidateConfigMap / ValidateConfigMapUpdate). */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';
import { countKeys } from './table.helpers';
import {
  byteLength,
  entriesOf,
  invalidEach,
  isConfigMapKey,
  isRecord,
  key,
  tooLongBytes,
  validateBase64Values,
  validateImmutableContents,
  type StringMap,
} from './validation.helpers';

/** core.MaxSecretSize, shared by ConfigMaps and Secrets. */
export const MAX_DATA_SIZE = 1024 * 1024;

export interface ConfigMap extends KubeObject {
  data?: StringMap;
  binaryData?: StringMap;
  immutable?: boolean;
}

function validateDataKeys(cm: ConfigMap): { errors: FieldError[]; size: number } {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [k, value] of entriesOf(cm.data)) {
    errors.push(...invalidEach(key('data', k), k, isConfigMapKey(k)));
    if (isRecord(cm.binaryData) && k in cm.binaryData) {
      errors.push(FieldError.invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    }
    size += byteLength(String(value));
  }
  return { errors, size };
}

function validateBinaryData(cm: ConfigMap): { errors: FieldError[]; size: number } {
  const keyErrors = entriesOf(cm.binaryData).flatMap(([k]) => invalidEach(key('binaryData', k), k, isConfigMapKey(k)));
  const values = validateBase64Values(cm.binaryData, 'binaryData', false);
  return { errors: [...keyErrors, ...values.errors], size: values.size };
}

export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const data = validateDataKeys(cm);
  const binary = validateBinaryData(cm);
  const errors = [...data.errors, ...binary.errors];
  // field.NewPath("") prints as "[]": the error is about the whole object.
  if (data.size + binary.size > MAX_DATA_SIZE) errors.push(tooLongBytes('[]', MAX_DATA_SIZE));
  return errors;
}

export const configMapStrategy: ResourceStrategy = {
  // kube's strategy: a PUT of a missing object is 404, not a create.
  allowCreateOnUpdate: false,
  validate: (obj: KubeObject) => validateConfigMap(obj as ConfigMap),
  validateUpdate: (obj: KubeObject, old: KubeObject) => [
    ...validateImmutableContents(obj, old, ['data', 'binaryData']),
    ...validateConfigMap(obj as ConfigMap),
  ],
};

export const configMapsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  strategy: configMapStrategy,
  tableColumns: [
    {
      name: 'Data',
      type: 'integer',
      description: 'Data contains the configuration data.',
      cell: (obj: KubeObject) => countKeys((obj as ConfigMap).data) + countKeys((obj as ConfigMap).binaryData),
    },
  ],
};
