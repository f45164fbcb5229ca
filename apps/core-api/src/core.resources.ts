import type { KubeObject, SchemaComponents } from '@kube/apimachinery';
import type { ResourceDefinition, ServiceAccountTokens } from '@kube/apiserver';
import type { AuthorizationSet } from '@kube/authorization';
import type { ServiceAllocator } from './allocation/service.allocator';
import * as openapi from './openapi';
import { admissionregistrationV1Components, appsV1Components, authenticationV1Components, authorizationV1Components, batchV1Components, coordinationV1Components, coreV1Components, flowcontrolV1Components, rbacV1Components } from './openapi';
import { clusterResources } from './resources/cluster.resources';
import { podEvictionSubresource, type EvictionStores } from './resources/policy.resources';
import { podBindingSubresource } from './resources/pod-binding.subresource';
import { nodeProxySubresource, podConnectSubresources, serviceProxySubresource, type ConnectStores } from './resources/pod-connect.subresources';
import { coreResources } from './resources';
import { appsResources } from './resources/apps.resources';
import { batchResources } from './resources/batch.resources';
import { admissionRegistrationResources } from './resources/admissionregistration.resources';
import { authorizationResources, tokenReviewResource, type TokenAuthenticator } from './resources/authorization.resources';
import { endpointsResourceWith, type EndpointsPolicy } from './resources/endpoints.resource';
import { flowcontrolResources } from './resources/flowcontrol.resources';
import { rbacResources } from './resources/rbac.resources';
import { serviceAccountTokenSubresource, type BoundObjectStores } from './resources/serviceaccount-token.subresource';

/** Events expire an hour after their last write, as kube's --event-ttl default. */
export const EVENT_TTL_SECONDS = 3600;

const SCHEMA_PACKAGES: Record<string, { prefix: string; components: SchemaComponents }> = {
  '': { prefix: 'io.k8s.api.core.v1.', components: coreV1Components },
  'coordination.k8s.io': { prefix: 'io.k8s.api.coordination.v1.', components: coordinationV1Components },
  'rbac.authorization.k8s.io': { prefix: 'io.k8s.api.rbac.v1.', components: rbacV1Components },
  'authorization.k8s.io': { prefix: 'io.k8s.api.authorization.v1.', components: authorizationV1Components },
  'authentication.k8s.io': { prefix: 'io.k8s.api.authentication.v1.', components: authenticationV1Components },
  'flowcontrol.apiserver.k8s.io': { prefix: 'io.k8s.api.flowcontrol.v1.', components: flowcontrolV1Components },
  apps: { prefix: 'io.k8s.api.apps.v1.', components: appsV1Components },
  batch: { prefix: 'io.k8s.api.batch.v1.', components: batchV1Components },
  // The cluster groups (issue 16); versions other than v1 are keyed group/version.
  autoscaling: { prefix: 'io.k8s.api.autoscaling.v1.', components: openapi.autoscalingV1Components },
  'autoscaling/v2': { prefix: 'io.k8s.api.autoscaling.v2.', components: openapi.autoscalingV2Components },
  policy: { prefix: 'io.k8s.api.policy.v1.', components: openapi.policyV1Components },
  'networking.k8s.io': { prefix: 'io.k8s.api.networking.v1.', components: openapi.networkingV1Components },
  'discovery.k8s.io': { prefix: 'io.k8s.api.discovery.v1.', components: openapi.discoveryV1Components },
  'events.k8s.io': { prefix: 'io.k8s.api.events.v1.', components: openapi.eventsV1Components },
  'storage.k8s.io': { prefix: 'io.k8s.api.storage.v1.', components: openapi.storageV1Components },
  'scheduling.k8s.io': { prefix: 'io.k8s.api.scheduling.v1.', components: openapi.schedulingV1Components },
  'node.k8s.io': { prefix: 'io.k8s.api.node.v1.', components: openapi.nodeV1Components },
  'certificates.k8s.io': { prefix: 'io.k8s.api.certificates.v1.', components: openapi.certificatesV1Components },
  'admissionregistration.k8s.io': { prefix: 'io.k8s.api.admissionregistration.v1.', components: admissionregistrationV1Components },
};

function withSchema(def: ResourceDefinition): ResourceDefinition {
  const pkg = SCHEMA_PACKAGES[def.version === 'v1' ? def.group : `${def.group}/${def.version}`];
  const name = pkg ? pkg.prefix + def.kind : undefined;
  return pkg && name && pkg.components[name] ? { ...def, schema: { name, components: pkg.components } } : def;
}

function namespaceSpecFinalizers(obj: KubeObject): string[] {
  return ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).filter(Boolean);
}

/** The built-in resources with their OpenAPI schemas and the storage side effects core-api adds. */
export function buildCoreResources(
  allocator: ServiceAllocator,
  authorization: AuthorizationSet,
  endpoints: EndpointsPolicy = { allowLoopback: false },
  serviceAccountTokens?: { tokens: ServiceAccountTokens; stores: BoundObjectStores; authenticate: TokenAuthenticator },
  eviction?: EvictionStores,
  connect?: ConnectStores,
): ResourceDefinition[] {
  const tokenReview = serviceAccountTokens ? [tokenReviewResource(serviceAccountTokens.authenticate, serviceAccountTokens.tokens.apiAudiences)] : [];
  return [...coreResources, ...rbacResources, ...flowcontrolResources, ...admissionRegistrationResources, ...authorizationResources(authorization), ...tokenReview, ...appsResources, ...batchResources, ...clusterResources].map(withSchema).map((def) => {
    // core/v1 and events.k8s.io/v1 events share one storage and its TTL.
    if (def.plural === 'events') return { ...def, ttlSeconds: EVENT_TTL_SECONDS };
    if (def.group !== '') return def;
    switch (def.plural) {
      case 'namespaces':
        return {
          ...def,
          hooks: {
            pendingFinalizers: (ns) => namespaceSpecFinalizers(ns).length > 0,
            onDeletionStarted: (ns) => {
              ns.status = { ...((ns.status as object) ?? {}), phase: 'Terminating' };
            },
          },
        };
      case 'services':
        return {
          ...def,
          subresources: connect ? { ...def.subresources, proxy: serviceProxySubresource(connect) } : def.subresources,
          hooks: {
            beforeCreate: (svc) => allocator.allocate(svc),
            beforeUpdate: async (svc, old) => {
              const undo = await allocator.allocate(svc, old);
              return undo;
            },
            afterDelete: (svc) => allocator.releaseFor(svc),
          },
        };
      case 'endpoints':
        return { ...endpointsResourceWith(endpoints), schema: def.schema };
      case 'pods':
        // Evictions honour PodDisruptionBudgets read from (and decremented in) their storage.
        // A scheduler binds through pods/binding (the simulated nodes' scheduler among them).
        // log, exec, attach, portforward and proxy answer as kube-apiserver does when no kubelet serves them.
        return eviction ? { ...def, subresources: { ...def.subresources, eviction: podEvictionSubresource(eviction), binding: podBindingSubresource(eviction.pods), ...(connect ? podConnectSubresources(eviction.pods, connect) : {}) } } : def;
      case 'nodes':
        return connect ? { ...def, subresources: { ...def.subresources, proxy: nodeProxySubresource(connect) } } : def;
      case 'serviceaccounts':
        // TokenRequest, when this server holds the service-account signing key.
        return serviceAccountTokens ? { ...def, subresources: { ...def.subresources, token: serviceAccountTokenSubresource(serviceAccountTokens.tokens, serviceAccountTokens.stores) } } : def;
      default:
        return def;
    }
  });
}
