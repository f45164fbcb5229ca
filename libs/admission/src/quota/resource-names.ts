/**
 * kube's resource names (pkg/apis/core/helper, k8s.io/api/core/v1 resource constants): which names quota and
 * limit ranges know, which count integers, and the object-count names (`count/<resource>[.<group>]`).
 */
import { isQualifiedName } from '@kube/apimachinery';

export const REQUESTS_PREFIX = 'requests.';
export const LIMITS_PREFIX = 'limits.';
const HUGEPAGES_PREFIX = 'hugepages-';
const DEFAULT_NAMESPACE_PREFIX = 'kubernetes.io/';

const STANDARD_CONTAINER_RESOURCES: ReadonlySet<string> = new Set(['cpu', 'memory', 'ephemeral-storage']);

const STANDARD_QUOTA_RESOURCES: ReadonlySet<string> = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);

const STANDARD_RESOURCES: ReadonlySet<string> = new Set([...STANDARD_QUOTA_RESOURCES, 'storage']);

const INTEGER_RESOURCES: ReadonlySet<string> = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

export const STANDARD_LIMIT_RANGE_TYPES: readonly string[] = ['Pod', 'Container', 'PersistentVolumeClaim'];

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGEPAGES_PREFIX);
}

/** hugepages-<size> or requests.hugepages-<size>. */
function isQuotaHugePageResourceName(name: string): boolean {
  return isHugePageResourceName(name) || name.startsWith(REQUESTS_PREFIX + HUGEPAGES_PREFIX);
}

/** In the kubernetes.io/ namespace (unprefixed names are). */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(DEFAULT_NAMESPACE_PREFIX);
}

/** A vendor's resource (example.com/gpu): not native, no requests. prefix, a qualified name once prefixed. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(REQUESTS_PREFIX + name).length === 0;
}

export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

export function isStandardResourceName(name: string): boolean {
  return STANDARD_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

export function isStandardContainerResourceName(name: string): boolean {
  return STANDARD_CONTAINER_RESOURCES.has(name) || isHugePageResourceName(name);
}

/** Counted in whole numbers: object counts and extended resources (`count/…` names are "extended" too). */
export function isIntegerResourceName(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

export const OBJECT_COUNT_PREFIX = 'count/';

/** ObjectCountQuotaResourceNameFor: `count/configmaps`, `count/deployments.apps`. */
export function objectCountResourceName(group: string, resource: string): string {
  return group ? `${OBJECT_COUNT_PREFIX}${resource}.${group}` : `${OBJECT_COUNT_PREFIX}${resource}`;
}
