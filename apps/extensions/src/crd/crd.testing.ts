/**
 * Test fixtures for the CRD specs: realistic CRDs (kube's CronTab example, a multi-version CRD with a
 * conversion webhook, a CRD with scale subresource and printer columns) and a runner that drives the
 * strategy the way the generic REST handler does.
 */
import type { FieldError } from '@kube/apimachinery';
import type { RequestContext, ResourceDefinition } from '@kube/apiserver';
import type { CustomResourceDefinition } from './crd.types';

export const ctx: RequestContext = { user: { name: 'tester', groups: [] }, dryRun: false, warnings: [] };

export function messages(errors: readonly FieldError[]): string[] {
  return errors.map((e) => e.toString());
}

/** default → prepareForCreate → validate, as a POST runs them. Mutates the object. */
export function create(def: ResourceDefinition, crd: CustomResourceDefinition): FieldError[] {
  const s = def.strategy ?? {};
  s.default?.(crd);
  s.prepareForCreate?.(crd, ctx);
  return s.validate?.(crd, ctx) ?? [];
}

/** A PUT: default, status kept from the stored object (status subresource), prepareForUpdate, validateUpdate. */
export function update(def: ResourceDefinition, crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const s = def.strategy ?? {};
  s.default?.(crd);
  if (old.status === undefined) delete crd.status;
  else crd.status = structuredClone(old.status);
  s.prepareForUpdate?.(crd, old, ctx);
  return s.validateUpdate?.(crd, old, ctx) ?? [];
}

/** A stored CRD: created through the strategy, then Established by the controllers. */
export function stored(def: ResourceDefinition, crd: CustomResourceDefinition, established = true): CustomResourceDefinition {
  const errs = create(def, crd);
  if (errs.length > 0) throw new Error(`fixture is invalid: ${messages(errs).join('; ')}`);
  crd.metadata = { ...crd.metadata, uid: 'u1', generation: 1, creationTimestamp: '2024-01-01T00:00:00Z' };
  if (established) crd.status = { ...crd.status, conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }] };
  return crd;
}

export function copy(crd: CustomResourceDefinition): CustomResourceDefinition {
  return structuredClone(crd);
}

/** kube's documentation example (tasks/extend-kubernetes/custom-resources/custom-resource-definitions). */
export function cronTab(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } },
                },
              },
            },
          },
        },
      ],
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    },
  };
}

/** Two versions with different schemas, v1beta1 deprecated, converted by a webhook service. */
export function multiVersion(): CustomResourceDefinition {
  const schema = (colorField: string): CustomResourceDefinition['spec']['versions'][number]['schema'] => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [colorField]: { type: 'string' } } } } },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'gadgets', kind: 'Gadget', categories: ['all'] },
      versions: [
        { name: 'v1beta1', served: true, storage: false, deprecated: true, deprecationWarning: 'example.com/v1beta1 Gadget is deprecated; use example.com/v1', schema: schema('colour') },
        { name: 'v1', served: true, storage: true, schema: schema('color') },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'gadgets', name: 'converter', path: '/convert' } } },
      },
    },
  };
}

/** A replica-carrying kind with /status, /scale and printer columns (one version, so they are hoisted). */
export function scalable(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.apps.example.org' },
    spec: {
      group: 'apps.example.org',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, size: { type: 'string' } } },
                status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
              },
            },
          },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          additionalPrinterColumns: [
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Size', type: 'string', jsonPath: '.spec.size', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          selectableFields: [{ jsonPath: '.spec.size' }],
        },
      ],
    },
  };
}
