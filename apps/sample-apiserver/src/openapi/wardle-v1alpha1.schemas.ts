/**
 * OpenAPI v3 schemas of wardle.example.com/v1alpha1, written by hand with the definition names and descriptions
 * kube's sample-apiserver publishes (its openapi-gen output), so `kubectl explain flunders.spec` reads the same.
 * The meta/v1 types they reference (ObjectMeta, ListMeta, …) come from @kube/apiserver.
 */
import type { JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import { metaV1Components } from '@kube/apiserver';
import { REFERENCE_TYPES, WARDLE_GROUP, WARDLE_VERSION } from '../wardle.types';

const PREFIX = 'io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.';

export const FLUNDER_SCHEMA = `${PREFIX}Flunder`;
export const FISCHER_SCHEMA = `${PREFIX}Fischer`;

const ref = (name: string): JSONSchemaProps => ({ $ref: `#/components/schemas/${name}` });

const API_VERSION: JSONSchemaProps = {
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};

const KIND: JSONSchemaProps = {
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

const OBJECT_META: JSONSchemaProps = {
  allOf: [ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')],
  default: {},
  description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

const LIST_META: JSONSchemaProps = {
  allOf: [ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta')],
  default: {},
  description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
};

const gvk = (kind: string): JSONSchemaProps['x-kubernetes-group-version-kind'] => [{ group: WARDLE_GROUP, kind, version: WARDLE_VERSION }];

function listOf(kind: string, description: string): JSONSchemaProps {
  return {
    description,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: API_VERSION,
      items: { description: `items is the list of ${kind}s.`, type: 'array', items: { allOf: [ref(`${PREFIX}${kind}`)], default: {} } },
      kind: KIND,
      metadata: LIST_META,
    },
    'x-kubernetes-group-version-kind': gvk(`${kind}List`),
  };
}

const wardleOwn: SchemaComponents = {
  [FLUNDER_SCHEMA]: {
    description: 'Flunder is an example namespaced resource of the sample API server.',
    type: 'object',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: OBJECT_META,
      spec: { allOf: [ref(`${PREFIX}FlunderSpec`)], default: {}, description: 'spec is the desired state of the Flunder.' },
      status: { allOf: [ref(`${PREFIX}FlunderStatus`)], default: {}, description: 'status is the observed state of the Flunder (written through the /status subresource).' },
    },
    'x-kubernetes-group-version-kind': gvk('Flunder'),
  },
  [`${PREFIX}FlunderList`]: listOf('Flunder', 'FlunderList is a list of Flunder objects.'),
  [`${PREFIX}FlunderSpec`]: {
    description: 'FlunderSpec is the specification of a Flunder.',
    type: 'object',
    properties: {
      reference: { description: 'A name of another flunder or fischer, depending on the reference type.', type: 'string' },
      referenceType: {
        description: 'The reference type, defaults to "Flunder" if reference is set.\n\nPossible enum values:\n - `"Fischer"` reference is the name of a Fischer\n - `"Flunder"` reference is the name of a Flunder',
        type: 'string',
        enum: [...REFERENCE_TYPES].sort(),
      },
    },
  },
  [`${PREFIX}FlunderStatus`]: {
    description: 'FlunderStatus is the status of a Flunder. The sample keeps it empty; it shows the status subresource.',
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [FISCHER_SCHEMA]: {
    description: 'Fischer is an example cluster-scoped resource: the Flunder names it lists may not be used (BanFlunder admission).',
    type: 'object',
    properties: {
      apiVersion: API_VERSION,
      disallowedFlunders: {
        description: 'DisallowedFlunders holds a list of Flunder.Names that are disallowed.',
        type: 'array',
        items: { type: 'string', default: '' },
      },
      kind: KIND,
      metadata: OBJECT_META,
    },
    'x-kubernetes-group-version-kind': gvk('Fischer'),
  },
  [`${PREFIX}FischerList`]: listOf('Fischer', 'FischerList is a list of Fischer objects.'),
};

export const wardleV1alpha1Components: SchemaComponents = { ...metaV1Components, ...wardleOwn };
