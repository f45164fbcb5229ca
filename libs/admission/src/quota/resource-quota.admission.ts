/**
 * kube's ResourceQuota admission (k8s.io/apiserver/pkg/admission/plugin/resourcequota): a write in a namespace
 * with quotas is charged to every quota that tracks what it uses; over a limit it is refused (403) with kube's
 * message, otherwise the new usage is written to the quota's status with a compare-and-swap on its
 * resourceVersion (re-checked against the fresh quota on every retry), so concurrent writes never overrun it.
 */
import { Errors, isStatusError, type KubeObject } from '@kube/apimachinery';
import type { Storage, StorageInterface } from '@kube/storage';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission.types';
import { add, equals, lessThanOrEqual, mask, prettyPrint, subtractNonNegative, toResourceList, fromResourceList, type ResourceList } from './resource-list';
import { quotaScopes, type ResourceQuota } from './resource-quota.types';
import { evaluatorFor, type QuotaEvaluator } from './usage.evaluators';

/** Whatever the watch cache holds: the charge itself re-reads the quota from etcd. */
const FROM_CACHE = { resourceVersion: '0' };

interface Charge {
  quota: ResourceQuota;
  used: ResourceList;
}

/** The quota's answer to one write: nothing to charge (undefined), the new usage, or an error to refuse with. */
function evaluate(quota: ResourceQuota, evaluator: QuotaEvaluator, obj: KubeObject, delta: ResourceList, subresource: string): { used: ResourceList } | { refuse: string } | undefined {
  const hard = toResourceList(quota.status?.hard);
  const matched = evaluator.matchingResources(hard.keys());
  if (matched.length === 0) return undefined;
  if (!quotaScopes(quota).every((scope) => evaluator.matchesScope(scope, obj))) return undefined;
  const name = quota.metadata.name as string;
  const constraint = evaluator.constraints?.(matched, obj);
  if (constraint) return { refuse: `failed quota: ${name}: ${constraint}` };
  const used = toResourceList(quota.status?.used);
  if (matched.some((r) => !used.has(r))) return { refuse: `status unknown for quota: ${name}, resources: ${[...matched].sort().join(',')}` };
  const requested = mask(delta, hard.keys());
  const newUsed = add(used, requested);
  // Status writes only record usage (kube never refuses them).
  if (subresource !== 'status') {
    const { allowed, exceeded } = lessThanOrEqual(mask(newUsed, requested.keys()), hard);
    if (!allowed) {
      return { refuse: `exceeded quota: ${name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}` };
    }
  }
  return equals(newUsed, used) ? undefined : { used: newUsed };
}

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = 'ResourceQuota';

  /** `quotas`: the resourcequotas storage (core/v1, etcd prefix /registry/resourcequotas), or an aggregated server's through the API. */
  constructor(private readonly quotas: Pick<StorageInterface, 'list' | 'guaranteedUpdate'>) {}

  /** On a server's Storage: the same resourcequotas store (and watch cache) core-api serves them from. */
  static forStorage(storage: Storage): ResourceQuotaAdmission {
    return new ResourceQuotaAdmission(storage.resource({ group: '', resource: 'resourcequotas' }, 'resourcequotas'));
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!a.resource.namespaced || !a.namespace || !a.object || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
    const evaluator = evaluatorFor({ group: a.resource.group, resource: a.resource.plural });
    if (!evaluator?.handles(a.operation, a.subresource)) return;
    const { items } = await this.quotas.list(a.namespace, FROM_CACHE);
    if (items.length === 0) return;
    const obj = a.object;
    const usage = evaluator.usage(obj);
    const delta = a.operation === 'UPDATE' && a.oldObject ? subtractNonNegative(usage, evaluator.usage(a.oldObject)) : usage;
    const charges: Charge[] = [];
    for (const quota of items as ResourceQuota[]) {
      const outcome = evaluate(quota, evaluator, obj, delta, a.subresource);
      if (outcome && 'refuse' in outcome) throw this.forbidden(a, outcome.refuse);
      if (outcome) charges.push({ quota, used: outcome.used });
    }
    // A dry run is checked, never charged.
    if (a.ctx.dryRun) return;
    for (const charge of charges) await this.charge(charge.quota, evaluator, a, delta);
  }

  /** Writes the new usage, re-evaluated against the quota as stored on every attempt (kube retries on conflict). */
  private async charge(quota: ResourceQuota, evaluator: QuotaEvaluator, a: AdmissionAttributes, delta: ResourceList): Promise<void> {
    const obj = a.object as KubeObject;
    await this.quotas
      .guaranteedUpdate(a.namespace, quota.metadata.name as string, (current) => {
        const stored = current as ResourceQuota;
        const outcome = evaluate(stored, evaluator, obj, delta, a.subresource);
        if (outcome && 'refuse' in outcome) throw this.forbidden(a, outcome.refuse);
        if (!outcome) return stored;
        return { ...stored, status: { ...stored.status, used: fromResourceList(outcome.used) } };
      })
      .catch((err: unknown) => {
        // A quota deleted meanwhile charges nothing.
        if (isStatusError(err) && err.code === 404) return;
        throw err;
      });
  }

  private forbidden(a: AdmissionAttributes, why: string): Error {
    return Errors.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, why);
  }
}
