/**
 * counts.example.com/v1alpha1 ObjectCount: a computed, read-only resource (metrics-server's model). One object
 * per namespace, named after it, with live counts read from the core API on every GET and LIST; nothing is stored.
 */
import { isStatusError, type JSONSchemaProps, type KubeObject, type SchemaComponents } from '@kube/apimachinery';
import { definitionPrefix, metaV1Components, type ResourceDefinition, type ResourceSource, type TableColumn } from '@kube/apiserver';
import { COUNTED_RESOURCES, type Counts, type NamespaceCounts, type ObjectCounter } from '../object-counter';

export const GROUP = 'counts.example.com';
export const VERSION = 'v1alpha1';

export interface ObjectCount extends KubeObject {
  counts: Counts;
  /** Sum of counts. */
  total: number;
}

const PREFIX = `${definitionPrefix({ group: GROUP, version: VERSION })}.`;
export const OBJECT_COUNT_SCHEMA = `${PREFIX}ObjectCount`;
const ref = (name: string): JSONSchemaProps => ({ $ref: `#/components/schemas/${name}` });

export const objectCountComponents: SchemaComponents = {
  ...metaV1Components,
  [OBJECT_COUNT_SCHEMA]: {
    description: 'ObjectCount holds live counts of the objects in one namespace, computed when read. Read-only.',
    type: 'object',
    properties: {
      apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
      kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
      metadata: { allOf: [ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')], default: {}, description: "The namespace's name, labels and creation time." },
      counts: {
        description: 'Objects in the namespace, by resource (core/v1).',
        type: 'object',
        properties: Object.fromEntries(COUNTED_RESOURCES.map((r) => [r, { description: `Number of ${r}.`, type: 'integer', format: 'int64' }])),
      },
      total: { description: 'Sum of counts.', type: 'integer', format: 'int64' },
    },
    'x-kubernetes-group-version-kind': [{ group: GROUP, kind: 'ObjectCount', version: VERSION }],
  },
};

/** The object served for a namespace: its name, labels and creation time, so selectors and AGE mean the namespace's. */
export function objectCountOf({ namespace, counts }: NamespaceCounts): ObjectCount {
  const metadata = { name: namespace.name, labels: namespace.labels, creationTimestamp: namespace.creationTimestamp };
  return { apiVersion: `${GROUP}/${VERSION}`, kind: 'ObjectCount', metadata, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}

function objectCountSource(counter: ObjectCounter): ResourceSource {
  return {
    get: async ({ name }) => {
      try {
        return objectCountOf(await counter.one(name));
      } catch (err) {
        // The core API's 404 is about a namespace; ours is about an objectcount of that name.
        if (isStatusError(err) && err.code === 404) return undefined;
        throw err;
      }
    },
    list: async () => (await counter.all()).map(objectCountOf),
  };
}

const countColumn = (resource: (typeof COUNTED_RESOURCES)[number]): TableColumn => ({
  name: resource.charAt(0).toUpperCase() + resource.slice(1),
  type: 'integer',
  description: `Number of ${resource}.`,
  // Service accounts and pods are printed with -o wide only.
  priority: resource === 'serviceaccounts' || resource === 'pods' ? 1 : 0,
  cell: (obj: KubeObject) => (obj as ObjectCount).counts[resource],
});

export function objectCountsResource(counter: ObjectCounter): ResourceDefinition {
  return {
    group: GROUP,
    version: VERSION,
    kind: 'ObjectCount',
    plural: 'objectcounts',
    singular: 'objectcount',
    namespaced: false,
    schema: { name: OBJECT_COUNT_SCHEMA, components: objectCountComponents },
    source: objectCountSource(counter),
    tableColumns: [
      ...COUNTED_RESOURCES.map(countColumn),
      { name: 'Total', type: 'integer', description: 'Sum of counts.', cell: (obj: KubeObject) => (obj as ObjectCount).total },
    ],
  };
}

