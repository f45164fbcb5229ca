import type { JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import type { ResourceDefinition } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
// The builders by path: @kube/apiserver re-exports them, but importing its index boots the whole server module graph.
import { buildOpenApiV2, buildOpenApiV3, referencedNames } from '../../../../libs/apiserver/src/openapi';
import { statusSubresource } from '../../../../libs/apiserver/src/subresources/status.subresource';
import * as openapi from './index';
import { appsV1Components, authenticationV1Components, authorizationV1Components, batchV1Components, coordinationV1Components, coreV1Components, rbacV1Components } from './index';

const CORE = 'io.k8s.api.core.v1.';
const CORE_KINDS = ['Namespace', 'ConfigMap', 'Secret', 'ServiceAccount', 'Service', 'Endpoints', 'Event', 'Pod'];

function danglingRefs(components: SchemaComponents): string[] {
  return Object.values(components)
    .flatMap((schema) => referencedNames(schema))
    .filter((name) => !components[name]);
}

function gvkOf(schema: JSONSchemaProps | undefined): unknown {
  return schema?.['x-kubernetes-group-version-kind'];
}

function coreResource(kind: string): ResourceDefinition {
  const plural = kind === 'Endpoints' ? 'endpoints' : `${kind.toLowerCase()}s`;
  return {
    group: '',
    version: 'v1',
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced: kind !== 'Namespace',
    subresources: ['Namespace', 'Service', 'Pod'].includes(kind) ? { status: statusSubresource() } : undefined,
    schema: { name: `${CORE}${kind}`, components: coreV1Components },
  };
}

describe('built-in schemas', () => {
  it('are closed under $ref', () => {
    expect(danglingRefs(coreV1Components)).toEqual([]);
    expect(danglingRefs(coordinationV1Components)).toEqual([]);
    expect(danglingRefs(rbacV1Components)).toEqual([]);
    expect(danglingRefs(authorizationV1Components)).toEqual([]);
    expect(danglingRefs(authenticationV1Components)).toEqual([]);
    expect(danglingRefs(appsV1Components)).toEqual([]);
    expect(danglingRefs(batchV1Components)).toEqual([]);
    for (const [name, components] of Object.entries(openapi)) expect(danglingRefs(components), name).toEqual([]);
  });

  it('describe the workload kinds with the pod template they embed', () => {
    for (const kind of ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ControllerRevision']) {
      expect(gvkOf(appsV1Components[`io.k8s.api.apps.v1.${kind}`]), kind).toEqual([{ group: 'apps', kind, version: 'v1' }]);
    }
    for (const kind of ['Job', 'CronJob']) expect(gvkOf(batchV1Components[`io.k8s.api.batch.v1.${kind}`]), kind).toEqual([{ group: 'batch', kind, version: 'v1' }]);
    expect(appsV1Components['io.k8s.api.apps.v1.DeploymentSpec'].properties?.strategy.description).toMatch(/^The deployment strategy to use/);
    expect(batchV1Components[`${CORE}PodTemplateSpec`]).toBe(coreV1Components[`${CORE}PodTemplateSpec`]);
  });

  it('describe the cluster groups\' kinds with their GVK', () => {
    const kinds: Array<[SchemaComponents, string, string, string]> = [
      [openapi.autoscalingV1Components, 'io.k8s.api.autoscaling.v1.', 'autoscaling', 'HorizontalPodAutoscaler'],
      [openapi.autoscalingV2Components, 'io.k8s.api.autoscaling.v2.', 'autoscaling', 'HorizontalPodAutoscaler'],
      [openapi.policyV1Components, 'io.k8s.api.policy.v1.', 'policy', 'PodDisruptionBudget'],
      [openapi.networkingV1Components, 'io.k8s.api.networking.v1.', 'networking.k8s.io', 'Ingress'],
      [openapi.discoveryV1Components, 'io.k8s.api.discovery.v1.', 'discovery.k8s.io', 'EndpointSlice'],
      [openapi.storageV1Components, 'io.k8s.api.storage.v1.', 'storage.k8s.io', 'VolumeAttachment'],
      [openapi.schedulingV1Components, 'io.k8s.api.scheduling.v1.', 'scheduling.k8s.io', 'PriorityClass'],
      [openapi.nodeV1Components, 'io.k8s.api.node.v1.', 'node.k8s.io', 'RuntimeClass'],
      [openapi.certificatesV1Components, 'io.k8s.api.certificates.v1.', 'certificates.k8s.io', 'CertificateSigningRequest'],
      [coreV1Components, CORE, '', 'ReplicationController'],
    ];
    for (const [components, prefix, group, kind] of kinds) {
      const version = prefix.split('.').at(-2);
      expect(gvkOf(components[prefix + kind]), kind).toEqual([{ group, kind, version }]);
    }
  });

  it('describe every served kind and its list, with GVK, descriptions and patch strategies', () => {
    for (const kind of CORE_KINDS) {
      expect(gvkOf(coreV1Components[`${CORE}${kind}`]), kind).toEqual([{ group: '', kind, version: 'v1' }]);
      expect(gvkOf(coreV1Components[`${CORE}${kind}List`]), kind).toEqual([{ group: '', kind: `${kind}List`, version: 'v1' }]);
    }
    expect(gvkOf(coordinationV1Components['io.k8s.api.coordination.v1.Lease'])).toEqual([{ group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' }]);
    for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']) {
      expect(gvkOf(rbacV1Components[`io.k8s.api.rbac.v1.${kind}`]), kind).toEqual([{ group: 'rbac.authorization.k8s.io', kind, version: 'v1' }]);
    }
    for (const kind of ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview']) {
      expect(gvkOf(authorizationV1Components[`io.k8s.api.authorization.v1.${kind}`]), kind).toEqual([{ group: 'authorization.k8s.io', kind, version: 'v1' }]);
    }
    expect(gvkOf(authenticationV1Components['io.k8s.api.authentication.v1.SelfSubjectReview'])).toEqual([{ group: 'authentication.k8s.io', kind: 'SelfSubjectReview', version: 'v1' }]);
    expect(coreV1Components['io.k8s.api.autoscaling.v1.Scale']).toBeDefined();
    const podSpec = coreV1Components[`${CORE}PodSpec`].properties;
    expect(podSpec?.containers['x-kubernetes-patch-merge-key']).toBe('name');
    expect(podSpec?.containers['x-kubernetes-patch-strategy']).toBe('merge');
    expect(coreV1Components[`${CORE}ConfigMap`].properties?.data.description).toMatch(/^Data contains the configuration data/);
  });

  it('build complete v3 and v2 documents for core/v1 and coordination.k8s.io/v1', () => {
    const lease: ResourceDefinition = {
      group: 'coordination.k8s.io',
      version: 'v1',
      kind: 'Lease',
      plural: 'leases',
      singular: 'lease',
      namespaced: true,
      schema: { name: 'io.k8s.api.coordination.v1.Lease', components: coordinationV1Components },
    };
    const resources = [...CORE_KINDS.map(coreResource), lease];
    const core = buildOpenApiV3({ group: '', version: 'v1' }, resources);
    expect(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/status'].patch?.operationId).toBe('patchCoreV1NamespacedPodStatus');
    expect(core.paths['/api/v1/namespaces/{name}'].get?.operationId).toBe('readCoreV1Namespace');
    expect(core.components.schemas[`${CORE}PodList`]).toBe(coreV1Components[`${CORE}PodList`]);
    const swagger = buildOpenApiV2(resources);
    expect(JSON.stringify(swagger)).not.toContain('#/components/');
    expect(swagger.definitions['io.k8s.api.coordination.v1.LeaseList']).toBeDefined();
  });
});
