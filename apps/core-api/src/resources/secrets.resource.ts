/** core/v1 Secret (ValidateSecret / ValidateSecretUpdate, SetDefaults_Secret, the stringData conversion). */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';
import { MAX_DATA_SIZE } from './configmaps.resource';
import { countKeys } from './table.helpers';
import {
  child,
  entriesOf,
  invalidEach,
  isConfigMapKey,
  isRecord,
  key,
  tooLongBytes,
  validateBase64Values,
  validateImmutableContents,
  validateImmutableField,
  type StringMap,
} from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

export const SECRET_TYPE_OPAQUE = 'Opaque';
export const SECRET_TYPE_SERVICE_ACCOUNT_TOKEN = 'kubernetes.io/service-account-token';
export const SECRET_TYPE_DOCKERCFG = 'kubernetes.io/dockercfg';
export const SECRET_TYPE_DOCKER_CONFIG_JSON = 'kubernetes.io/dockerconfigjson';
export const SECRET_TYPE_BASIC_AUTH = 'kubernetes.io/basic-auth';
export const SECRET_TYPE_SSH_AUTH = 'kubernetes.io/ssh-auth';
export const SECRET_TYPE_TLS = 'kubernetes.io/tls';
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';

const REDACTED = '<secret contents redacted>';

export interface Secret extends KubeObject {
  type?: string;
  data?: StringMap;
  stringData?: StringMap;
  immutable?: boolean;
}

/** stringData is write-only: its entries overwrite data (base64-encoded) and it is never stored. */
function mergeStringData(secret: Secret): void {
  if (secret.stringData === undefined) return;
  const entries = entriesOf(secret.stringData);
  if (entries.length > 0) {
    const data: StringMap = isRecord(secret.data) ? { ...secret.data } : {};
    for (const [k, v] of entries) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    secret.data = data;
  }
  delete secret.stringData;
}

function decoded(secret: Secret, dataKey: string): Buffer | undefined {
  const value = isRecord(secret.data) ? secret.data[dataKey] : undefined;
  return typeof value === 'string' ? Buffer.from(value, 'base64') : undefined;
}

/** How encoding/json names a JSON value's kind in an UnmarshalTypeError. */
function goJSONKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** The content of a docker config key must be a JSON object (json.Unmarshal into map[string]interface{}). */
function validateDockerConfig(secret: Secret, dataKey: string): FieldError[] {
  const path = key('data', dataKey);
  const bytes = decoded(secret, dataKey);
  if (bytes === undefined) return [FieldError.required(path)];
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (parsed === null || isRecord(parsed)) return [];
    return [FieldError.invalid(path, REDACTED, `json: cannot unmarshal ${goJSONKind(parsed)} into Go value of type map[string]interface {}`)];
  } catch (err) {
    return [FieldError.invalid(path, REDACTED, (err as Error).message)];
  }
}

const hasKey = (secret: Secret, dataKey: string): boolean => isRecord(secret.data) && dataKey in secret.data;

/** The keys each well-known secret type requires. */
function validateTypeRequirements(secret: Secret): FieldError[] {
  switch (secret.type) {
    case SECRET_TYPE_SERVICE_ACCOUNT_TOKEN:
      return secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION]
        ? []
        : [FieldError.required(key(child('metadata', 'annotations'), SERVICE_ACCOUNT_NAME_ANNOTATION))];
    case SECRET_TYPE_DOCKERCFG:
      return validateDockerConfig(secret, '.dockercfg');
    case SECRET_TYPE_DOCKER_CONFIG_JSON:
      return validateDockerConfig(secret, '.dockerconfigjson');
    case SECRET_TYPE_BASIC_AUTH:
      return hasKey(secret, 'username') || hasKey(secret, 'password')
        ? []
        : [FieldError.required(key('data', 'username')), FieldError.required(key('data', 'password'))];
    case SECRET_TYPE_SSH_AUTH:
      return (decoded(secret, 'ssh-privatekey')?.length ?? 0) > 0 ? [] : [FieldError.required(key('data', 'ssh-privatekey'))];
    case SECRET_TYPE_TLS:
      return ['tls.crt', 'tls.key'].filter((k) => !hasKey(secret, k)).map((k) => FieldError.required(key('data', k)));
    default:
      return [];
  }
}

export function validateSecret(secret: Secret): FieldError[] {
  const keyErrors = entriesOf(secret.data).flatMap(([k]) => invalidEach(key('data', k), k, isConfigMapKey(k)));
  const values = validateBase64Values(secret.data, 'data', true);
  const errors = [...keyErrors, ...values.errors];
  if (values.size > MAX_DATA_SIZE) errors.push(tooLongBytes('data', MAX_DATA_SIZE));
  // Type checks decode the values: only meaningful once they are valid base64.
  return values.errors.length > 0 ? errors : [...errors, ...validateTypeRequirements(secret)];
}

export const secretStrategy: ResourceStrategy = {
  // kube's strategy: a PUT of a missing object is 404, not a create.
  allowCreateOnUpdate: false,
  default(obj: KubeObject): void {
    const secret = obj as Secret;
    if (!secret.type) secret.type = SECRET_TYPE_OPAQUE;
    mergeStringData(secret);
  },
  validate: (obj: KubeObject) => validateSecret(obj as Secret),
  validateUpdate: (obj: KubeObject, old: KubeObject) => [
    ...validateImmutableField((obj as Secret).type, (old as Secret).type, 'type'),
    ...validateImmutableContents(obj, old, ['data']),
    ...validateSecret(obj as Secret),
  ],
  fields: (obj: KubeObject) => ({ type: (obj as Secret).type ?? '' }),
  unknownFieldLabel: fieldLabelNotSupported,
};

export const secretsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  strategy: secretStrategy,
  tableColumns: [
    {
      name: 'Type',
      type: 'string',
      description: 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
      cell: (obj: KubeObject) => (obj as Secret).type ?? '',
    },
    {
      name: 'Data',
      type: 'integer',
      description: 'Data contains the secret data.',
      cell: (obj: KubeObject) => countKeys((obj as Secret).data),
    },
  ],
};
