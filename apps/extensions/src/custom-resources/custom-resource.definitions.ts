import { type JSONSchemaProps, type KubeObject, type SchemaComponents } from '@kube/apimachinery';
import { CustomResourceSchema } from '@kube/apiextensions';
import { metaV1Components, scaleSubresource, serviceStores, statusSubresource, type ResourceDefinition, type Subresources } from '@kube/apiserver';
import type { Storage } from '@kube/storage';
import { webhookConverters } from '../conversion/webhook-converters';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../crd/crd.types';
import { printerColumns } from './printer-columns';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** Defaults applied on read: a copy only when a default is missing (schemas gain defaults after objects exist). */
function withDefaults(obj: KubeObject, pipeline: CustomResourceSchema): KubeObject {
  const copy = structuredClone(obj);
  pipeline.default(copy);
  // Defaulting only adds keys, so a plain serialization comparison tells whether anything was added.
  return JSON.stringify(copy) === JSON.stringify(obj) ? obj : copy;
}

/** The published OpenAPI schema of a custom resource: metadata is ObjectMeta, as kube publishes it. */
function openApiSchema(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion, schema: JSONSchemaProps): { name: string; components: SchemaComponents } {
  const group = crd.spec.group;
  const kind = crd.spec.names.kind;
  const name = `${group.split('.').reverse().join('.')}.${v.name}.${kind}`;
  const root: JSONSchemaProps = {
    ...schema,
    type: 'object',
    properties: {
      ...(schema.properties ?? {}),
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { $ref: `#/components/schemas/${OBJECT_META}` },
    },
    'x-kubernetes-group-version-kind': [{ group, version: v.name, kind }],
  };
  const listName = `${name}List`;
  const list: JSONSchemaProps = {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
      items: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
    },
    'x-kubernetes-group-version-kind': [{ group, version: v.name, kind: crd.spec.names.listKind ?? `${kind}List` }],
  };
  return { name, components: { ...metaV1Components, [name]: root, [listName]: list } };
}

/** The status and scale subresources a CRD version declares. */
function subresourcesOf(v: CustomResourceDefinitionVersion): Subresources {
  const scale = v.subresources?.scale;
  return {
    ...(v.subresources?.status !== undefined ? { status: statusSubresource() } : {}),
    ...(scale ? { scale: scaleSubresource({ specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, labelSelectorPath: scale.labelSelectorPath }) } : {}),
  };
}

/**
 * One ResourceDefinition per served version of an established CRD: the custom-resource pipeline (prune,
 * default, validate incl. CEL) as the strategy, printer columns, subresources, deprecation warnings, and the
 * storage version every version is written in (conversion "None" rewrites only apiVersion; "Webhook" converts
 * through the CRD's webhook, whose `service` is resolved from `storage`'s Services and Endpoints).
 */
export function customResourceDefinitions(crd: CustomResourceDefinition, storage?: Storage): ResourceDefinition[] {
  const storageVersion = crd.spec.versions.find((v) => v.storage)?.name;
  // One converter shared by every version: it knows the storage version and keeps one connection pool.
  const conversion = webhookConverters.converterFor(crd, storage && serviceStores(storage));
  const names = crd.status?.acceptedNames?.kind ? { ...crd.spec.names, ...crd.status.acceptedNames } : crd.spec.names;
  return crd.spec.versions
    .filter((v) => v.served)
    .map((v) => {
      const openAPIV3Schema = (v.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as JSONSchemaProps;
      const pipeline = new CustomResourceSchema(openAPIV3Schema);
      const columns = v.additionalPrinterColumns ?? [];
      const def: ResourceDefinition = {
        group: crd.spec.group,
        version: v.name,
        kind: names.kind,
        listKind: names.listKind ?? `${names.kind}List`,
        plural: names.plural,
        singular: names.singular ?? names.kind.toLowerCase(),
        shortNames: names.shortNames,
        categories: names.categories,
        namespaced: crd.spec.scope === 'Namespaced',
        tracksGeneration: true,
        subresources: subresourcesOf(v),
        schema: openApiSchema(crd, v, openAPIV3Schema),
        tableColumns: columns.length ? printerColumns(columns) : undefined,
        // Declared printer columns replace the defaults entirely (kube adds Age only when none are declared).
        tableAge: columns.length === 0,
        storagePrefix: `${crd.spec.group}/${crd.spec.names.plural}`,
        storageVersion,
        conversion,
        disableStrategicMergePatch: true,
        deprecationWarning: v.deprecated ? (v.deprecationWarning ?? `${crd.spec.group}/${v.name} ${names.kind} is deprecated`) : undefined,
        strategy: {
          prune: (obj) => pipeline.prune(obj),
          default: (obj) => pipeline.default(obj),
          // A schema without defaults never changes what is read back.
          decorate: pipeline.hasDefaults ? (obj) => withDefaults(obj, pipeline) : undefined,
          validate: (obj) => pipeline.validate(obj),
          validateUpdate: (obj, old) => pipeline.validate(obj, old),
          allowCreateOnUpdate: false,
          allowUnconditionalUpdate: false,
        },
      };
      return def;
    });
}
