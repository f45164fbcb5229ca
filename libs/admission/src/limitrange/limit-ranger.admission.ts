/**
 * kube's LimitRanger admission (plugin/pkg/admission/limitranger): on Pod creation, containers without requests
 * or limits get the namespace's LimitRange defaults (recorded in the `kubernetes.io/limit-ranger` annotation);
 * then Pods (per Container and per Pod) and PersistentVolumeClaims (storage) are held to min, max and
 * maxLimitRequestRatio, refused with kube's messages as 403 Forbidden.
 */
import { Errors, Quantity, type KubeObject } from '@kube/apimachinery';
import type { Storage, StorageInterface } from '@kube/storage';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission.types';
import { listOf, podTotals, type PodContainer, type PodResourcesSpec } from '../quota/pod-resources';
import { toResourceList, type ResourceList } from '../quota/resource-list';
import type { LimitRange, LimitRangeItem } from '../quota/resource-quota.types';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

const FROM_CACHE = { resourceVersion: '0' };

interface Pod extends KubeObject {
  spec?: PodResourcesSpec;
}
interface PersistentVolumeClaim extends KubeObject {
  spec?: { resources?: { requests?: Record<string, unknown> } };
}

const sorted = (names: Iterable<string>): string[] => [...names].sort();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Request, limit and enforced value at a common precision (milli-units unless that would overflow int64 in kube). */
const MAX_MILLI_VALUE = 9223372036854775n;
function comparable(q: Quantity | undefined, milli: boolean): bigint {
  if (!q) return 0n;
  return BigInt(milli ? q.milliValue() : q.value());
}
function useMilli(...qs: (Quantity | undefined)[]): boolean {
  return qs.every((q) => !q || BigInt(q.value()) <= MAX_MILLI_VALUE);
}

function minConstraint(type: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const milli = useMilli(req, lim, enforced);
  const e = comparable(enforced, milli);
  if (!req) return `minimum ${resource} usage per ${type} is ${enforced}.  No request is specified`;
  if (comparable(req, milli) < e) return `minimum ${resource} usage per ${type} is ${enforced}, but request is ${req}`;
  if (lim && comparable(lim, milli) < e) return `minimum ${resource} usage per ${type} is ${enforced}, but limit is ${lim}`;
  return undefined;
}

function maxConstraint(type: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const milli = useMilli(req, lim, enforced);
  const e = comparable(enforced, milli);
  if (!lim) return `maximum ${resource} usage per ${type} is ${enforced}.  No limit is specified`;
  if (comparable(lim, milli) > e) return `maximum ${resource} usage per ${type} is ${enforced}, but limit is ${lim}`;
  if (req && comparable(req, milli) > e) return `maximum ${resource} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** For types whose limits are not user input (PVCs): the request is held to the max. */
function maxRequestConstraint(type: string, resource: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(resource);
  const milli = useMilli(req, enforced);
  if (!req) return `maximum ${resource} usage per ${type} is ${enforced}.  No request is specified`;
  if (comparable(req, milli) > comparable(enforced, milli)) return `maximum ${resource} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** Go's %f: six decimals. */
function ratioConstraint(type: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const milli = useMilli(req, lim, enforced);
  const r = comparable(req, milli);
  const l = comparable(lim, milli);
  if (!req || r === 0n) return `${resource} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${resource} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  const enforcedMilli = BigInt(enforced.value()) <= MAX_MILLI_VALUE;
  const compared = enforcedMilli ? observed * 1000 : observed;
  const max = enforcedMilli ? enforced.milliValue() : enforced.value();
  if (compared > max) return `${resource} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}

/** Every min, max and ratio of one item against one requests/limits pair. */
function enforce(item: LimitRangeItem, type: string, requests: ResourceList, limits: ResourceList, errors: string[]): void {
  const each = (list: Record<string, string> | undefined, check: (resource: string, q: Quantity) => string | undefined): void => {
    const parsed = toResourceList(list);
    for (const resource of sorted(parsed.keys())) {
      const err = check(resource, parsed.get(resource) as Quantity);
      if (err) errors.push(err);
    }
  };
  each(item.min, (r, q) => minConstraint(type, r, q, requests, limits));
  each(item.max, (r, q) => maxConstraint(type, r, q, requests, limits));
  each(item.maxLimitRequestRatio, (r, q) => ratioConstraint(type, r, q, requests, limits));
}

/** PodValidateLimitFunc for one LimitRange. */
export function validatePodLimits(limitRange: LimitRange, pod: Pod): string[] {
  const errors: string[] = [];
  for (const item of listOf(limitRange.spec?.limits)) {
    if (item.type === 'Container') {
      for (const c of [...listOf(pod.spec?.containers), ...listOf(pod.spec?.initContainers)]) {
        enforce(item, 'Container', toResourceList(c.resources?.requests), toResourceList(c.resources?.limits), errors);
      }
    } else if (item.type === 'Pod') enforce(item, 'Pod', podTotals(pod.spec ?? {}, 'requests', false), podTotals(pod.spec ?? {}, 'limits', false), errors);
  }
  return errors;
}

/** PersistentVolumeClaimValidateLimitFunc: storage requests against min and max. */
export function validateClaimLimits(limitRange: LimitRange, pvc: PersistentVolumeClaim): string[] {
  const errors: string[] = [];
  const requests = toResourceList(pvc.spec?.resources?.requests);
  for (const item of listOf(limitRange.spec?.limits)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    const min = toResourceList(item.min);
    for (const r of sorted(min.keys())) {
      const err = minConstraint('PersistentVolumeClaim', r, min.get(r) as Quantity, requests, new Map());
      if (err) errors.push(err);
    }
    const max = toResourceList(item.max);
    for (const r of sorted(max.keys())) {
      const err = maxRequestConstraint('PersistentVolumeClaim', r, max.get(r) as Quantity, requests);
      if (err) errors.push(err);
    }
  }
  return errors;
}

/** The Container items' defaultRequest and default (the last LimitRange item wins, as kube's map writes). */
function containerDefaults(limitRange: LimitRange): { requests: Record<string, string>; limits: Record<string, string> } {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  for (const item of listOf(limitRange.spec?.limits)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  return { requests, limits };
}

/** mergeContainerResources: fills what the container lacks, returns the annotation parts. */
function mergeContainer(container: PodContainer, defaults: { requests: Record<string, string>; limits: Record<string, string> }, prefix: string): string[] {
  const resources = isRecord(container.resources) ? container.resources : (container.resources = {});
  const limits = isRecord(resources.limits) ? resources.limits : {};
  const requests = isRecord(resources.requests) ? resources.requests : {};
  const setLimits = Object.keys(defaults.limits).filter((k) => !(k in limits));
  const setRequests = Object.keys(defaults.requests).filter((k) => !(k in requests));
  for (const k of setLimits) limits[k] = defaults.limits[k];
  for (const k of setRequests) requests[k] = defaults.requests[k];
  if (Object.keys(limits).length) resources.limits = limits;
  if (Object.keys(requests).length) resources.requests = requests;
  const parts: string[] = [];
  if (setRequests.length) parts.push(`${sorted(setRequests).join(', ')} request for ${prefix} ${container.name ?? ''}`);
  if (setLimits.length) parts.push(`${sorted(setLimits).join(', ')} limit for ${prefix} ${container.name ?? ''}`);
  return parts;
}

/** PodMutateLimitFunc for one LimitRange: defaults applied, the annotation written when anything was set. */
export function defaultPodResources(limitRange: LimitRange, pod: Pod): void {
  const defaults = containerDefaults(limitRange);
  if (Object.keys(defaults.requests).length === 0 && Object.keys(defaults.limits).length === 0) return;
  const parts = [
    ...listOf(pod.spec?.containers).flatMap((c) => (isRecord(c) ? mergeContainer(c, defaults, 'container') : [])),
    ...listOf(pod.spec?.initContainers).flatMap((c) => (isRecord(c) ? mergeContainer(c, defaults, 'init container') : [])),
  ];
  if (parts.length === 0) return;
  pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${parts.join('; ')}` };
}

export class LimitRangerAdmission implements AdmissionPlugin {
  readonly name = 'LimitRanger';

  /** `limitRanges`: the limitranges storage (core/v1, etcd prefix /registry/limitranges). */
  constructor(private readonly limitRanges: StorageInterface) {}

  /** On a server's Storage: the same limitranges store (and watch cache) core-api serves them from. */
  static forStorage(storage: Storage): LimitRangerAdmission {
    return new LimitRangerAdmission(storage.resource({ group: '', resource: 'limitranges' }, 'limitranges'));
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (!this.supports(a) || a.resource.plural !== 'pods') return;
    for (const lr of await this.lookup(a)) defaultPodResources(lr, a.object as Pod);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!this.supports(a)) return;
    const errors: string[] = [];
    for (const lr of await this.lookup(a)) {
      errors.push(...(a.resource.plural === 'pods' ? validatePodLimits(lr, a.object as Pod) : validateClaimLimits(lr, a.object as PersistentVolumeClaim)));
      // kube stops at the first LimitRange that fails.
      if (errors.length) break;
    }
    if (errors.length === 0) return;
    // utilerrors.NewAggregate: one message alone, several as "[a, b]".
    const why = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    throw Errors.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, why);
  }

  /**
   * Pods on create (their containers cannot change afterwards) and PersistentVolumeClaims on create and update,
   * never a subresource, never an object being deleted.
   */
  private supports(a: AdmissionAttributes): boolean {
    if (a.resource.group !== '' || a.subresource !== '' || !a.object) return false;
    if (a.oldObject?.metadata.deletionTimestamp) return false;
    if (a.resource.plural === 'pods') return a.operation === 'CREATE';
    return a.resource.plural === 'persistentvolumeclaims' && (a.operation === 'CREATE' || a.operation === 'UPDATE');
  }

  private async lookup(a: AdmissionAttributes): Promise<LimitRange[]> {
    return (await this.limitRanges.list(a.namespace, FROM_CACHE)).items as LimitRange[];
  }
}
